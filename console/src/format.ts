/** A date and time as the person's browser writes them, or a dash. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function count(n: number): string {
  return n.toLocaleString();
}

export function percent(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}

/** A `datetime-local` input's value (local time) as an ISO instant, or null when empty. */
export function fromLocalInput(value: string): string | null {
  return value === '' ? null : new Date(value).toISOString();
}

/** An ISO instant as a `datetime-local` input's value (local time). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Comma- or space-separated values of a text input. */
export function list(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
