/**
 * A form's draft, kept on this device until the form is sent (issue 52: a cheap
 * phone reloads the page when the camera opens, and a long form must not be lost).
 * \`name\` names the form and whose it is (\`profile:09171234567\`); the value is JSON.
 * Sign-out drops every draft (\`clearDrafts\` in storage.ts).
 */
import { DRAFT_PREFIX, localStore, readStored, writeStored } from './storage';

export const drafts = {
  get(name: string): Record<string, unknown> | null {
    const text = readStored(localStore(), DRAFT_PREFIX + name);
    try {
      const value: unknown = text ? JSON.parse(text) : null;
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  },
  set: (name: string, value: object) => writeStored(localStore(), DRAFT_PREFIX + name, JSON.stringify(value)),
  clear: (name: string) => writeStored(localStore(), DRAFT_PREFIX + name, null),
};
