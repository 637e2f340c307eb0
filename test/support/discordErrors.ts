/**
 * Discord's error answers, shaped as Discord sends them, so discord.js turns them into the
 * same DiscordAPIError a bot gets in production. Status, code and message of each were checked
 * against bots' reports of real answers (discord-api-docs and library issue trackers).
 */

/** One problem with one field of a request body: `path` as in the body, indices as numbers. */
export interface FieldError {
  path: (string | number)[];
  code: string;
  message: string;
}

/** Discord's `errors` object: the field path nested down to `{ _errors: [...] }`. */
export interface FormErrors {
  [key: string]: FormErrors | { code: string; message: string }[];
}

/** What the fake answers instead of doing what was asked. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  errors?: FormErrors;
}

export const DISCORD_ERRORS = {
  unknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  unknownGuild: { status: 404, code: 10004, message: 'Unknown Guild' },
  unknownMember: { status: 404, code: 10007, message: 'Unknown Member' },
  unknownMessage: { status: 404, code: 10008, message: 'Unknown Message' },
  unknownRole: { status: 404, code: 10011, message: 'Unknown Role' },
  unknownUser: { status: 404, code: 10013, message: 'Unknown User' },
  unknownWebhook: { status: 404, code: 10015, message: 'Unknown Webhook' },
  unknownInteraction: { status: 404, code: 10062, message: 'Unknown interaction' },
  entityTooLarge: { status: 413, code: 40005, message: 'Request entity too large' },
  alreadyAcknowledged: { status: 400, code: 40060, message: 'Interaction has already been acknowledged.' },
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  emptyMessage: { status: 400, code: 50006, message: 'Cannot send an empty message' },
  cannotMessageUser: { status: 403, code: 50007, message: 'Cannot send messages to this user' },
  missingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
  invalidWebhookToken: { status: 401, code: 50027, message: 'Invalid Webhook Token' },
  invalidRecipients: { status: 400, code: 50033, message: 'Invalid Recipient(s)' },
} as const satisfies Record<string, Refusal>;

/** Discord's 400 for a body that breaks its rules: code 50035 with every field's problems. */
export function invalidFormBody(problems: FieldError[]): Refusal {
  const errors: FormErrors = {};
  for (const problem of problems) {
    let node = errors;
    for (const key of problem.path) {
      const next = node[String(key)];
      if (Array.isArray(next) || next === undefined) {
        const created: FormErrors = {};
        node[String(key)] = created;
        node = created;
      } else node = next;
    }
    const list = node._errors;
    const entry = { code: problem.code, message: problem.message };
    node._errors = Array.isArray(list) ? [...list, entry] : [entry];
  }
  return { status: 400, code: 50035, message: 'Invalid Form Body', errors };
}

/** Discord's message for each form error code the fake answers with. */
export const fieldError = {
  maxLength: (path: FieldError['path'], max: number): FieldError => ({
    path,
    code: 'BASE_TYPE_MAX_LENGTH',
    message: `Must be ${max} or fewer in length.`,
  }),
  minLength: (path: FieldError['path'], min: number): FieldError => ({
    path,
    code: 'BASE_TYPE_MIN_LENGTH',
    message: `Must be ${min} or more in length.`,
  }),
  badLength: (path: FieldError['path'], min: number, max: number): FieldError => ({
    path,
    code: 'BASE_TYPE_BAD_LENGTH',
    message: `Must be between ${min} and ${max} in length.`,
  }),
  required: (path: FieldError['path']): FieldError => ({
    path,
    code: 'BASE_TYPE_REQUIRED',
    message: 'This field is required',
  }),
  choices: (path: FieldError['path'], values: readonly unknown[]): FieldError => ({
    path,
    code: 'BASE_TYPE_CHOICES',
    message: `Value must be one of (${values.map(String).join(', ')}).`,
  }),
  numberMax: (path: FieldError['path'], max: number): FieldError => ({
    path,
    code: 'NUMBER_TYPE_MAX',
    message: `int value should be less than or equal to ${max}.`,
  }),
  numberMin: (path: FieldError['path'], min: number): FieldError => ({
    path,
    code: 'NUMBER_TYPE_MIN',
    message: `int value should be greater than or equal to ${min}.`,
  }),
};

/** A refusal in one line, its field errors flattened as discord.js writes them (`data.embeds[0].title[CODE]: …`). */
export function describeRefusal(refusal: Pick<Refusal, 'code' | 'message' | 'errors'>): string {
  const lines: string[] = [];
  const walk = (node: FormErrors, key: string) => {
    for (const [name, value] of Object.entries(node)) {
      if (Array.isArray(value)) {
        for (const error of value) lines.push(`${key}[${error.code}]: ${error.message}`);
        continue;
      }
      walk(value, key === '' ? name : /^\d+$/.test(name) ? `${key}[${name}]` : `${key}.${name}`);
    }
  };
  if (refusal.errors) walk(refusal.errors, '');
  return [`${refusal.code} ${refusal.message}`, ...lines].join(': ');
}
