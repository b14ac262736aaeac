import { Joi } from '@platform/tenancy';

/** Any number of settings at once; each is then validated by the directory's one check (as the command line does). */
export const settingsBody = Joi.object<Record<string, unknown>>().min(1).max(50).unknown(true);
