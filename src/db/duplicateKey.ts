import { MongoServerError } from 'mongodb';

/** A write refused because a unique key (often `_id` on an upsert that lost a race) exists. */
export function isDuplicateKey(error: unknown): boolean {
  if (error instanceof MongoServerError && error.code === 11000) return true;
  const writeErrors = (error as { writeErrors?: { code?: number }[] } | null)?.writeErrors;
  return Array.isArray(writeErrors) && writeErrors.some((e) => e.code === 11000);
}
