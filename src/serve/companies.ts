// `?company=` on the service's paths: the companies read, ids or names comma-separated as
// `--company` (Odoo's allowed_company_ids). Without it, every company the user may see.
import type { OdooClient } from '../core/client.js';
import { resolveCompanies } from '../read/companies.js';

/** The parameter as the OpenAPI document says it. */
export const COMPANY_PARAM = {
  type: 'string',
  minLength: 1,
  description:
    "companies, comma-separated ids or names (as --company; Odoo's allowed_company_ids); default every company the user may see. One the user may not see is 403",
};

/** The client reading `company`'s companies; a company the user may not see is Odoo's AccessError (403). */
export async function companyClient(client: OdooClient, company: string | undefined): Promise<OdooClient> {
  if (company === undefined) return client;
  const cs = await resolveCompanies(client, company);
  return client.forCompanies(cs.map((c) => c.id));
}
