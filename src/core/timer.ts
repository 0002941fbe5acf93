// The longest wait a timer can hold. Node's setTimeout takes at most 2^31 - 1 ms (~24.8 days)
// and turns a longer one into 1 ms with a warning on stderr: a --timeout beyond it would time
// out at once, a --watch refresh in a busy loop. Duration flags and settings stop here.
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
