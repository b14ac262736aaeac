interface PgError {
  code?: string;
  constraint?: string;
}

export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  const pg = error as PgError;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
};
