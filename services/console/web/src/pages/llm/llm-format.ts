/** How the LLM pages write counts and dollars. */
export const whole = (value: number) => Math.round(value).toLocaleString('en');

/** A cost in USD; null is a model the price table has no price for. */
export const usd = (value: number | null) =>
  value === null
    ? 'no price'
    : `$${value.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

/** An instant as a UTC time, like the UTC days the usage and the log filters count in. */
export const utcTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
