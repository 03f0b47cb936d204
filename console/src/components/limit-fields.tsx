/** An enterprise plan's own limits, as the key and account forms both ask them (whole numbers, at least 1). */
export function LimitFields({
  idPrefix,
  perMinute,
  perDay,
  onChange,
}: {
  idPrefix: string;
  perMinute: string;
  perDay: string;
  onChange: (name: 'perMinute' | 'perDay', value: string) => void;
}) {
  return (
    <>
      <div class="field">
        <label for={`${idPrefix}-per-minute`}>Requests per minute</label>
        <input
          id={`${idPrefix}-per-minute`}
          type="number"
          min={1}
          required
          value={perMinute}
          onInput={(e) => onChange('perMinute', e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-per-day`}>Requests per day</label>
        <input
          id={`${idPrefix}-per-day`}
          type="number"
          min={1}
          required
          value={perDay}
          onInput={(e) => onChange('perDay', e.currentTarget.value)}
        />
      </div>
    </>
  );
}
