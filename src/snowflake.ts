import { z } from 'zod';

/** A Discord id (user, role, channel, guild) as the API and options carry it: 15-21 digits. */
export const SNOWFLAKE_PATTERN = /^\d{15,21}$/;

export const snowflake = z.string().regex(SNOWFLAKE_PATTERN, 'must be a Discord id (15-21 digits)');
