import { useState } from 'preact/hooks';
import { type Account, PLANS, type Plan, type Schemas } from '../api.js';
import { LimitFields } from './limit-fields.js';

export interface AccountFields {
  name: string;
  plan: Plan;
  perMinute: string;
  perDay: string;
  externalId: string;
}

export function accountFieldsOf(account?: Account): AccountFields {
  return {
    name: account?.name ?? '',
    plan: account?.plan ?? 'pro',
    perMinute: account?.limits ? String(account.limits.perMinute) : '',
    perDay: account?.limits ? String(account.limits.perDay) : '',
    externalId: account?.externalId ?? '',
  };
}

export function newAccountOf(fields: AccountFields): Schemas['NewAccount'] {
  const body: Schemas['NewAccount'] = { name: fields.name.trim(), plan: fields.plan };
  if (fields.plan === 'enterprise')
    body.limits = { perMinute: Number(fields.perMinute), perDay: Number(fields.perDay) };
  if (fields.externalId.trim() !== '') body.externalId = fields.externalId.trim();
  return body;
}

export function accountChangesOf(before: AccountFields, after: AccountFields): Schemas['AccountUpdate'] {
  const changes: Schemas['AccountUpdate'] = {};
  if (after.name !== before.name) changes.name = after.name.trim();
  if (after.plan !== before.plan) changes.plan = after.plan;
  if (after.plan === 'enterprise' && (after.perMinute !== before.perMinute || after.perDay !== before.perDay)) {
    changes.limits = { perMinute: Number(after.perMinute), perDay: Number(after.perDay) };
  }
  if (after.externalId !== before.externalId)
    changes.externalId = after.externalId.trim() === '' ? null : after.externalId.trim();
  return changes;
}

export function AccountForm({
  idPrefix,
  initial,
  submitLabel,
  busy,
  onSubmit,
}: {
  idPrefix: string;
  initial: AccountFields;
  submitLabel: string;
  busy: boolean;
  onSubmit: (fields: AccountFields) => void;
}) {
  const [fields, setFields] = useState(initial);
  const set = <K extends keyof AccountFields>(name: K, value: AccountFields[K]) =>
    setFields({ ...fields, [name]: value });
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <form
      class="form-grid"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(fields);
      }}
    >
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
      <div class="field">
        <label for={id('plan')}>Plan (its keys share its windows)</label>
        <select id={id('plan')} value={fields.plan} onChange={(e) => set('plan', e.currentTarget.value as Plan)}>
          {PLANS.map((plan) => (
            <option key={plan} value={plan}>
              {plan}
            </option>
          ))}
        </select>
      </div>
      {fields.plan === 'enterprise' && (
        <LimitFields
          idPrefix={idPrefix}
          perMinute={fields.perMinute}
          perDay={fields.perDay}
          onChange={(name, value) => set(name, value)}
        />
      )}
      <div class="field">
        <label for={id('external')}>External id (optional, e.g. the billing system's)</label>
        <input
          id={id('external')}
          maxLength={200}
          value={fields.externalId}
          onInput={(e) => set('externalId', e.currentTarget.value)}
        />
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
