interface PgError {
  code?: string;
  constraint?: string;
}

/** Postgres unique_violation (23505), optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as PgError | undefined;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}
