/**
 * Typed extension filters (WordPress `apply_filters` semantics): modules declare their filters by merging
 * into `FilterMap`, integrators register functions that receive the current value and return a new one.
 *
 *   declare module '../../platform/hooks.js' {
 *     interface FilterMap { rova_fx_convert_rate_limit: [value: RateLimit, request: FastifyRequest] }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FilterMap {}

type FilterName = keyof FilterMap & string;
type ValueOf<K extends FilterName> = FilterMap[K] extends [infer V, ...unknown[]] ? V : never;
type ArgsOf<K extends FilterName> = FilterMap[K] extends [unknown, ...infer A] ? A : never;
export type FilterFn<K extends FilterName> = (value: ValueOf<K>, ...args: ArgsOf<K>) => ValueOf<K>;

interface Entry {
  priority: number;
  fn: (value: unknown, ...args: unknown[]) => unknown;
}

export class Filters {
  private readonly entries = new Map<string, Entry[]>();

  /** Adds a filter; lower priority runs first (default 10). Returns a function that removes it. */
  add<K extends FilterName>(name: K, fn: FilterFn<K>, priority = 10): () => void {
    const list = this.entries.get(name) ?? [];
    const entry: Entry = { priority, fn: fn as Entry['fn'] };
    list.push(entry);
    list.sort((a, b) => a.priority - b.priority);
    this.entries.set(name, list);
    return () => {
      const l = this.entries.get(name);
      if (l)
        this.entries.set(
          name,
          l.filter((e) => e !== entry),
        );
    };
  }

  has(name: FilterName): boolean {
    return (this.entries.get(name)?.length ?? 0) > 0;
  }

  apply<K extends FilterName>(name: K, value: ValueOf<K>, ...args: ArgsOf<K>): ValueOf<K> {
    const list = this.entries.get(name);
    if (!list) return value;
    let v: unknown = value;
    for (const e of list) v = e.fn(v, ...args);
    return v as ValueOf<K>;
  }
}
