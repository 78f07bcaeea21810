/**
 * A labelled select box, the one the lab's forms use: `<label>Text <select>` so the box's accessible
 * name is its label, options given as data (with optional groups), the value handed back typed.
 * Option labels are text, never HTML. Not for the configure form, whose fields come from the schema.
 */

export interface SelectOption<V extends string> {
  value: V;
  label: string;
  disabled?: boolean;
}

/** A group of options under a heading (`<optgroup>`). */
export interface SelectGroup<V extends string> {
  group: string;
  options: readonly SelectOption<V>[];
}

export function Select<V extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: V;
  options: readonly (SelectOption<V> | SelectGroup<V>)[];
  onChange: (value: V) => void;
  disabled?: boolean;
  testId?: string;
}) {
  const option = (o: SelectOption<V>) => (
    <option key={o.value} value={o.value} disabled={o.disabled}>
      {o.label}
    </option>
  );
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as V)} disabled={disabled} data-testid={testId}>
        {options.map((o) =>
          'group' in o
            ? o.options.length > 0 && (
                <optgroup key={`group:${o.group}`} label={o.group}>
                  {o.options.map(option)}
                </optgroup>
              )
            : option(o),
        )}
      </select>
    </label>
  );
}

/** Options for counts (replies, turns): each number as its own label. */
export function countOptions(ns: readonly number[]): SelectOption<string>[] {
  return ns.map((n) => ({ value: String(n), label: String(n) }));
}
