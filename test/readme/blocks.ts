/**
 * Documentation examples as tests. Every fenced `sh` / `bash` / `shell` block that contains `curl`, in README.md and
 * every page under docs/ (pages.ts gives their order), runs in document order in one bash session against a fresh
 * demo server. Conventions (docs/contributors/testing.md, "The docs are tested"):
 *   - `<!-- readme-test: skip (reason) -->` right before a block skips it;
 *   - a curl that is meant to fail says so in a comment: `curl … # → 401` on the command's last line, or a comment
 *     line right after the command that starts with `# → 409`; every other curl must answer 1xx–3xx.
 */
export interface ReadmeBlock {
  /** 1-based number among the curl blocks (skipped ones included), as the failure messages show it. */
  n: number;
  /** The page the block is on, from the repository root. */
  file: string;
  /** Line of the opening fence in that page. */
  line: number;
  /** The headings above the block, e.g. `Authentication › Get a key`. */
  heading: string;
  code: string;
  skip: string | null;
}

const FENCE_OPEN = /^(\s*)```\s*([A-Za-z]*)\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;
const SKIP = /<!--\s*readme-test:\s*skip\b\s*(?:\((.*)\))?\s*-->/;
const SHELLS = new Set(['sh', 'bash', 'shell']);

export function readmeBlocks(markdown: string, file = 'README.md'): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const headings: string[] = [];
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const text = lines[i] ?? '';
    const h = /^(#{1,6})\s+(.*)$/.exec(text);
    if (h) {
      headings.length = (h[1] ?? '#').length - 1;
      headings.push((h[2] ?? '').trim());
      continue;
    }
    const open = FENCE_OPEN.exec(text);
    if (!open) continue;
    const indent = (open[1] ?? '').length;
    const lang = (open[2] ?? '').toLowerCase();
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !FENCE_CLOSE.test(lines[j] ?? ''); j += 1)
      body.push((lines[j] ?? '').slice(Math.min(indent, leading(lines[j] ?? ''))));
    const code = body.join('\n');
    if (SHELLS.has(lang) && /\bcurl\b/.test(code)) {
      blocks.push({
        n: blocks.length + 1,
        file,
        line: i + 1,
        heading: headings.filter(Boolean).slice(1).join(' › ') || headings.join(' › '),
        code,
        skip: skipReason(lines, i),
      });
    }
    i = j;
  }
  return blocks;
}

/** The blocks of several pages in their order, numbered through (a block's number is unique in the run). */
export function docsBlocks(pages: readonly { file: string; text: string }[]): ReadmeBlock[] {
  let n = 0;
  return pages.flatMap((p) => readmeBlocks(p.text, p.file).map((b) => ({ ...b, n: (n += 1) })));
}

const leading = (s: string) => s.length - s.trimStart().length;

function skipReason(lines: string[], fence: number): string | null {
  for (let k = fence - 1; k >= 0; k -= 1) {
    const t = (lines[k] ?? '').trim();
    if (t === '') continue;
    const m = SKIP.exec(t);
    return m ? (m[1] ?? 'no reason given') : null;
  }
  return null;
}

const EXPECT_TRAILING = /#\s*→\s*(\d{3})\b/;
const EXPECT_LINE = /^\s*#\s*→\s*(\d{3})\b/;

/**
 * The block as it runs: the documented address replaced by the test server's, and `ROVA_EXPECT=NNN` put in front
 * of each curl that announces a status. A block that starts a second server (the backup drill) documents it on
 * port 8081 (`PORT=8081`, `http://127.0.0.1:8081`): `secondPort` is the free port it gets instead.
 */
export function runnable(code: string, base: string, secondPort?: number): string {
  let text = code.replace(/http:\/\/(127\.0\.0\.1|localhost):8080/g, base);
  if (secondPort !== undefined)
    text = text
      .replace(/http:\/\/(127\.0\.0\.1|localhost):8081\b/g, `http://127.0.0.1:${secondPort}`)
      .replace(/\bPORT=8081\b/g, `PORT=${secondPort}`);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    let j = i;
    // A command goes on after a trailing backslash or inside a quoted string (a JSON body over lines).
    while (j < lines.length - 1 && (/\\\s*$/.test(lines[j] ?? '') || endsInQuote(lines.slice(i, j + 1).join('\n'))))
      j += 1;
    const group = lines.slice(i, j + 1);
    const at = group.findIndex((l) => /(^|[\s($|&;])curl\s/.test(l) && !/^\s*#/.test(l));
    if (at >= 0) {
      const expect = EXPECT_TRAILING.exec(lines[j] ?? '')?.[1] ?? EXPECT_LINE.exec(lines[j + 1] ?? '')?.[1];
      if (expect) lines[i + at] = (lines[i + at] ?? '').replace(/(^|[\s($|&;])curl\s/, `$1ROVA_EXPECT=${expect} curl `);
    }
    i = j;
  }
  return lines.join('\n');
}

/** True when shell text ends inside a quoted string (comments and escapes as bash reads them). */
function endsInQuote(text: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let k = 0; k < text.length; k += 1) {
    const c = text[k];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      k += 1;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (k === 0 || /\s/.test(text[k - 1] ?? ''))) {
      const nl = text.indexOf('\n', k);
      if (nl < 0) break;
      k = nl;
    }
  }
  return quote !== null;
}

/** The curl wrapper and error trap every block runs under (one bash session; variables carry over). */
export function prelude(recordFile: string): string {
  return String.raw`
set -o pipefail
set -E
ROVA_REC='${recordFile}'
ROVA_TMP=$(dirname "$ROVA_REC")
__rova_err() { printf 'ERR\t%s\t%s\n' "$1" "$(printf '%s' "$2" | tr '\n\t' '  ' | head -c 300)" >> "$ROVA_REC"; }
trap '__rova_err "$LINENO" "$BASH_COMMAND"' ERR
curl() {
  # Two processes per call (curl, cat) instead of a dozen helpers: bash builtins do the bookkeeping. The temporary
  # files are per shell ($BASHPID), so a curl inside $(…) never shares one with its caller.
  local __b="$ROVA_TMP/body.$BASHPID" __e="$ROVA_TMP/err.$BASHPID" __rc __code='' __out='' __a __prev='' __line __cmd __body=''
  # The wrapper keeps the body to record it, so a caller's own -o/--output gets a copy instead of stdout.
  local -a __args=()
  for __a in "$@"; do
    if [ "$__prev" = -o ] || [ "$__prev" = --output ]; then __out=$__a
    elif [ "$__a" != -o ] && [ "$__a" != --output ]; then __args+=("$__a"); fi
    __prev=$__a
  done
  : > "$__b"
  __rc=0; command curl -sS -o "$__b" -w '%{stderr}__ROVA_CODE=%{http_code}\n' "${'$'}{__args[@]}" 2>"$__e" || __rc=$?
  while IFS= read -r __line || [ -n "$__line" ]; do
    case $__line in __ROVA_CODE=*) __code=${'$'}{__line#__ROVA_CODE=} ;; *) printf '%s\n' "$__line" >&2 ;; esac
  done < "$__e"
  [ -n "$__code" ] || __code=000
  if [ -n "$__out" ]; then command cat "$__b" > "$__out"; else command cat "$__b" 2>/dev/null || true; fi
  printf -v __cmd '%q ' "$@"
  IFS= read -r -d '' -N 400 __body < "$__b" || true
  __body=${'$'}{__body//[$'\n\t\r']/ }
  printf 'CURL\t%s\t%s\t%s\t%s\t%s\n' "$__rc" "$__code" "$ROVA_EXPECT" "${'$'}{__cmd:0:400}" "$__body" >> "$ROVA_REC"
  return 0
}
`;
}

export interface CurlRecord {
  exit: number;
  status: number;
  expect: number | null;
  command: string;
  body: string;
}

export interface BlockResult {
  curls: CurlRecord[];
  errors: { line: number; command: string }[];
}

export function parseRecords(text: string): BlockResult {
  const out: BlockResult = { curls: [], errors: [] };
  for (const row of text.split('\n')) {
    const f = row.split('\t');
    if (f[0] === 'CURL')
      out.curls.push({
        exit: Number(f[1]),
        status: Number(f[2]),
        expect: f[3] ? Number(f[3]) : null,
        command: f[4] ?? '',
        body: f[5] ?? '',
      });
    else if (f[0] === 'ERR') out.errors.push({ line: Number(f[1]), command: f[2] ?? '' });
  }
  return out;
}

/** What is wrong with one block's run, as lines for the failure message (empty = fine). */
export function problems(r: BlockResult): string[] {
  const p: string[] = [];
  r.curls.forEach((c, k) => {
    const what = `curl #${k + 1}: ${c.command.trim()}`;
    if (c.exit !== 0 && c.status === 0) p.push(`${what}\n      → no HTTP answer (curl exit ${c.exit})`);
    else if (c.expect !== null && c.status !== c.expect)
      p.push(`${what}\n      → HTTP ${c.status}, the docs say ${c.expect}: ${c.body.slice(0, 300)}`);
    else if (c.expect === null && c.status >= 400)
      p.push(
        `${what}\n      → HTTP ${c.status} (mark an intended failure with "# → ${c.status}"): ${c.body.slice(0, 300)}`,
      );
  });
  for (const e of r.errors) p.push(`line ${e.line} of the block failed: ${e.command}`);
  return p;
}

/** A JavaScript example of the docs: its file name (first-line comment `// name.mjs`) and code. */
export interface ReadmeScript {
  /** The page it is on, and the line of its opening fence there. */
  page: string;
  line: number;
  file: string;
  code: string;
}

/** Every fenced `js` / `mjs` / `javascript` block; each must name its file in a first-line comment. */
export function readmeScripts(markdown: string, page = 'README.md'): ReadmeScript[] {
  const lines = markdown.split('\n');
  const out: ReadmeScript[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = FENCE_OPEN.exec(lines[i] ?? '');
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !FENCE_CLOSE.test(lines[j] ?? ''); j += 1) body.push(lines[j] ?? '');
    if (['js', 'mjs', 'javascript'].includes((open[2] ?? '').toLowerCase())) {
      const code = body.join('\n');
      out.push({ page, line: i + 1, file: /^\/\/\s*([\w.-]+\.mjs)\b/.exec(code)?.[1] ?? '', code });
    }
    i = j;
  }
  return out;
}
