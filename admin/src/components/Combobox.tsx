import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { describedBy, FieldNotes } from './FormField';
import { useDebounced } from './useDebounced';

/** One choice of a picker: the id the API wants, the words a person recognises it by. */
export interface PickerOption {
  id: number;
  label: string;
  /** A second line (an e-mail, a city) that tells two similar labels apart. */
  detail?: string;
}

/** Where a picker's choices come from: a search against an existing list endpoint, and one record by id. */
export interface PickerSource {
  /** Query-key prefix (e.g. 'customers'): a write on that screen refreshes the picker too. */
  key: string;
  search(text: string): Promise<PickerOption[]>;
  /** The option of an id already held by the form (an edited record's location, a prefilled customer). */
  get(id: number): Promise<PickerOption | null>;
}

interface Props {
  label: string;
  source: PickerSource;
  value: number | null;
  onChange(id: number | null): void;
  error?: string | undefined;
  hint?: string;
  placeholder?: string;
  /** Called when the control loses focus (react-hook-form's onBlur). */
  onBlur?(): void;
}

/**
 * An accessible searchable picker (WAI-ARIA combobox with a listbox popup): type to search (debounced, one
 * request when typing stops), ArrowDown/ArrowUp move through the results (aria-activedescendant), Enter picks,
 * Escape closes (a second Escape restores the chosen value's text), leaving the field keeps the chosen value.
 * Clearing the text and leaving clears the value.
 */
export function Combobox({
  label,
  source,
  value,
  onChange,
  error,
  hint,
  placeholder = 'Type to search…',
  onBlur,
}: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [chosen, setChosen] = useState<PickerOption | null>(null);
  const typed = useRef(false);
  const debounced = useDebounced(text, 250);

  // The held id's own option (its label), fetched once per id.
  const held = useQuery({
    queryKey: [source.key, 'picker-one', value],
    queryFn: () => source.get(value!),
    enabled: value !== null && chosen?.id !== value,
    staleTime: 5 * 60_000,
  });
  const current = value === null ? null : chosen?.id === value ? chosen : (held.data ?? null);
  useEffect(() => {
    if (!typed.current) setText(current ? current.label : '');
  }, [current?.id, current?.label]);

  const results = useQuery({
    queryKey: [source.key, 'picker-search', debounced.trim()],
    queryFn: () => source.search(debounced.trim()),
    enabled: open,
    staleTime: 30_000,
  });
  const options = results.data ?? [];
  useEffect(() => setActive(options.length > 0 ? 0 : -1), [results.data]);

  const choose = (o: PickerOption) => {
    typed.current = false;
    setChosen(o);
    setText(o.label);
    setOpen(false);
    onChange(o.id);
  };
  const restore = () => {
    typed.current = false;
    setText(current?.label ?? '');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => (options.length === 0 ? -1 : (i + 1) % options.length));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => (options.length === 0 ? -1 : (i - 1 + options.length) % options.length));
    } else if (e.key === 'Enter') {
      // Enter picks the active option; it never submits the form while the list is open.
      if (open) {
        e.preventDefault();
        const o = options[active];
        if (o) choose(o);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        e.stopPropagation(); // a picker in a slide-over: the first Escape closes the list, not the dialog
        setOpen(false);
      } else if (text !== (current?.label ?? '')) {
        e.preventDefault();
        e.stopPropagation();
        restore();
      }
    }
  };

  const described = describedBy(id, hint, error);
  const expanded = open && (options.length > 0 || results.isFetched);
  return (
    <div className="relative mb-3">
      <label htmlFor={id} id={`${id}-label`} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className="input w-full"
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={
          expanded && active >= 0 && options[active] ? `${listId}-${options[active].id}` : undefined
        }
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          typed.current = true;
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          if (text.trim() === '' && value !== null) {
            typed.current = false;
            setChosen(null);
            onChange(null);
          } else restore();
          onBlur?.();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-labelledby={`${id}-label`}
        hidden={!expanded}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded border border-slate-300 bg-white shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {options.length === 0 && results.isFetched && (
          <li
            role="option"
            aria-disabled="true"
            aria-selected={false}
            className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400"
          >
            {results.isError ? 'Search failed.' : 'No matches.'}
          </li>
        )}
        {options.map((o, i) => (
          <li
            key={o.id}
            id={`${listId}-${o.id}`}
            role="option"
            aria-selected={i === active}
            className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-teal-100 dark:bg-teal-900' : ''}`}
            // mousedown would blur the input first (and restore its text): keep the focus, pick on click
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(o)}
          >
            <span className="block">{o.label}</span>
            {o.detail && <span className="block text-xs text-slate-600 dark:text-slate-400">{o.detail}</span>}
          </li>
        ))}
      </ul>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
