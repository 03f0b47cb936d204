import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { href, onLinkClick } from '../router.js';

/** What went wrong, as the API said it (its `message`), read out by screen readers as it appears. */
export function ErrorNotice({ error }: { readonly error: unknown }) {
  if (error === undefined || error === null) return null;
  const text =
    error instanceof ApiFailure
      ? error.describe()
      : error instanceof Error
        ? `The console could not reach the API: ${error.message}`
        : 'Something went wrong.';
  return (
    <p class="notice error" role="alert">
      {text}
    </p>
  );
}

export function Loading({ when }: { readonly when: boolean }) {
  return when ? (
    <p class="muted" role="status">
      Loading…
    </p>
  ) : null;
}

export function Link({
  to,
  children,
  label,
  current,
}: {
  to: string;
  children: ComponentChildren;
  label?: string;
  current?: boolean;
}) {
  return (
    <a
      href={href(to)}
      aria-label={label}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => onLinkClick(event, to)}
    >
      {children}
    </a>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section aria-labelledby={headingId} class="panel">
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function Table({ caption, children }: { caption: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/**
 * A secret shown once (a new or rolled key), with a copy button and the warning that
 * it cannot be shown again.
 */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopied('Copied to the clipboard.'),
      () => {
        field.current?.select();
        setCopied('The browser refused the clipboard: the secret is selected, copy it with Ctrl+C.');
      },
    );
  };
  return (
    <div class="secret" role="group" aria-labelledby="secret-heading">
      <h3 id="secret-heading">The key's secret</h3>
      <p class="notice warning">
        Copy it now: this is the only time it is shown. The service keeps only a hash of it, and nobody can show it
        again.
      </p>
      <label for="secret-value">Secret</label>
      <div class="row">
        <input
          id="secret-value"
          ref={field}
          readOnly
          value={secret}
          class="mono"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {copied}
      </p>
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

/**
 * A confirmation in a modal `<dialog>`: focus moves into it and stays there, Escape
 * cancels, and the question names what is about to happen.
 */
export function Confirm({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={onCancel} onClose={() => open && onCancel()}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <div class="row">
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
