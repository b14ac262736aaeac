import { webUrl } from '@platform/tenancy';

/** An absolute http(s) URL, as Stripe needs for its redirects. */
export const urlSchema = () => webUrl();
