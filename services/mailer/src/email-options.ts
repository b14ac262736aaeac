/** Joi email rule shared by every endpoint (no TLD list: internal domains are valid recipients). */
export const EMAIL_OPTIONS = { tlds: { allow: false } } as const;
