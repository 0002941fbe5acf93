// luxon as posdata uses it: DateTime, with luxon's default locale set to en-US before any
// DateTime is made. Unset, luxon's first DateTime asks Intl for the system's locale: a
// DateTimeFormat, ICU's first, ~20 ms of CPU before the first request even where every zone is
// UTC. No output changes: posdata reads no luxon text in the system's locale (toFormat and
// fromFormat are en-US unless a locale is given to them; posdata calls neither toLocaleString
// nor Info, and sets no locale). Every module of posdata takes DateTime from here.
import { DateTime, Settings } from 'luxon';

Settings.defaultLocale = 'en-US';

export { DateTime };
