/** The part of pino-roll (https://github.com/mcollina/pino-roll) the console's log uses; the package ships no types. */
declare module 'pino-roll' {
  import type { DestinationStream } from 'pino';

  interface RollOptions {
    file: string;
    extension?: string;
    frequency?: 'daily' | 'hourly' | number;
    dateFormat?: string;
    limit?: { count: number };
    size?: string | number;
    mkdir?: boolean;
    /** Passed to SonicBoom: write synchronously. */
    sync?: boolean;
  }
  /** A SonicBoom stream that moves to a new file when the period ends; `file` is the current one. */
  export default function pinoRoll(options: RollOptions): Promise<DestinationStream & { file: string }>;
}
