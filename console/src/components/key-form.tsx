import { useState } from 'preact/hooks';
import { type Account, type ApiKey, PLANS, type Plan, type Schemas, type Scope, SCOPES } from '../api.js';
import { fromLocalInput, list, toLocalInput } from '../format.js';
import { LimitFields } from './limit-fields.js';

/** What the key form edits: the fields of POST /admin/api-keys and PATCH /admin/api-keys/{keyId}. */
export interface KeyFields {
  name: string;
  plan: Plan;
  scopes: Scope[];
  perMinute: string;
  perDay: string;
  expiresAt: string;
  allowedAddresses: string;
  accountId: string;
}

export function fieldsOf(key?: ApiKey): KeyFields {
  return {
    name: key?.name ?? '',
    plan: key?.plan ?? 'free',
    scopes: key ? [...key.scopes] : ['read'],
    perMinute: key?.limits ? String(key.limits.perMinute) : '',
    perDay: key?.limits ? String(key.limits.perDay) : '',
    expiresAt: toLocalInput(key?.expiresAt),
    allowedAddresses: key?.allowedAddresses?.join(', ') ?? '',
    accountId: key?.accountId ? String(key.accountId) : '',
  };
}

/**
 * The body of a PATCH: only what changed (limits only for enterprise, where they are allowed;
 * neither plan nor limits for a key in an account, which has the account's).
 */
export function changesOf(before: KeyFields, after: KeyFields): Schemas['ApiKeyUpdate'] {
  const changes: Schemas['ApiKeyUpdate'] = {};
  const ownPlan = after.accountId === '';
  if (ownPlan && after.plan !== before.plan) changes.plan = after.plan;
  if (after.scopes.join() !== before.scopes.join()) changes.scopes = after.scopes;
  if (
    ownPlan &&
    after.plan === 'enterprise' &&
    (after.perMinute !== before.perMinute || after.perDay !== before.perDay)
  ) {
    changes.limits = { perMinute: Number(after.perMinute), perDay: Number(after.perDay) };
  }
  if (after.expiresAt !== before.expiresAt) changes.expiresAt = fromLocalInput(after.expiresAt);
  if (after.allowedAddresses !== before.allowedAddresses) {
    const addresses = list(after.allowedAddresses);
    changes.allowedAddresses = addresses.length > 0 ? addresses : null;
  }
  if (after.accountId !== before.accountId) changes.accountId = after.accountId === '' ? null : Number(after.accountId);
  return changes;
}

/** The body of a POST: the name, and what is set (a key in an account has the account's plan). */
export function newKeyOf(fields: KeyFields): Schemas['NewApiKey'] {
  const body: Schemas['NewApiKey'] = { name: fields.name.trim(), scopes: fields.scopes };
  const ownPlan = fields.accountId === '';
  if (ownPlan) body.plan = fields.plan;
  if (ownPlan && fields.plan === 'enterprise' && fields.perMinute !== '' && fields.perDay !== '') {
    body.limits = { perMinute: Number(fields.perMinute), perDay: Number(fields.perDay) };
  }
  const expiresAt = fromLocalInput(fields.expiresAt);
  if (expiresAt) body.expiresAt = expiresAt;
  const addresses = list(fields.allowedAddresses);
  if (addresses.length > 0) body.allowedAddresses = addresses;
  if (fields.accountId !== '') body.accountId = Number(fields.accountId);
  return body;
}

/** The key's fields, every control labelled; `idPrefix` keeps ids unique when two forms share a page. */
export function KeyForm({
  idPrefix,
  initial,
  accounts,
  withName,
  submitLabel,
  busy,
  onSubmit,
}: {
  idPrefix: string;
  initial: KeyFields;
  accounts: readonly Account[];
  withName: boolean;
  submitLabel: string;
  busy: boolean;
  onSubmit: (fields: KeyFields) => void;
}) {
  const [fields, setFields] = useState(initial);
  const set = <K extends keyof KeyFields>(name: K, value: KeyFields[K]) => setFields({ ...fields, [name]: value });
  const id = (name: string) => `${idPrefix}-${name}`;
  const inAccount = fields.accountId !== '';
  return (
    <form
      class="form-grid"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(fields);
      }}
    >
      {withName && (
        <div class="field">
          <label for={id('name')}>Name</label>
          <input
            id={id('name')}
            required
            maxLength={100}
            value={fields.name}
            onInput={(e) => set('name', e.currentTarget.value)}
          />
        </div>
      )}
      <div class="field">
        <label for={id('plan')}>Plan</label>
        <select
          id={id('plan')}
          value={fields.plan}
          disabled={inAccount}
          aria-describedby={inAccount ? id('plan-note') : undefined}
          onChange={(e) => set('plan', e.currentTarget.value as Plan)}
        >
          {PLANS.map((plan) => (
            <option key={plan} value={plan}>
              {plan}
            </option>
          ))}
        </select>
        {inAccount && (
          <small id={id('plan-note')} class="muted">
            A key in an account has the account's plan.
          </small>
        )}
      </div>
      <fieldset class="field">
        <legend>Scopes</legend>
        {SCOPES.map((scope) => (
          <label key={scope} class="check">
            <input
              type="checkbox"
              checked={fields.scopes.includes(scope)}
              onChange={(e) =>
                set(
                  'scopes',
                  e.currentTarget.checked
                    ? SCOPES.filter((s) => s === scope || fields.scopes.includes(s))
                    : fields.scopes.filter((s) => s !== scope),
                )
              }
            />{' '}
            {scope}
          </label>
        ))}
      </fieldset>
      {fields.plan === 'enterprise' && !inAccount && (
        <LimitFields
          idPrefix={idPrefix}
          perMinute={fields.perMinute}
          perDay={fields.perDay}
          onChange={(name, value) => set(name, value)}
        />
      )}
      <div class="field">
        <label for={id('expires')}>Expires (empty: never)</label>
        <input
          id={id('expires')}
          type="datetime-local"
          value={fields.expiresAt}
          onInput={(e) => set('expiresAt', e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={id('addresses')}>Allowed addresses (comma-separated; empty: any)</label>
        <input
          id={id('addresses')}
          placeholder="203.0.113.0/24, 2001:db8::1"
          value={fields.allowedAddresses}
          onInput={(e) => set('allowedAddresses', e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={id('account')}>Account</label>
        <select id={id('account')} value={fields.accountId} onChange={(e) => set('accountId', e.currentTarget.value)}>
          <option value="">None</option>
          {accounts.map((account) => (
            <option key={account.id} value={String(account.id)}>
              {account.name}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
