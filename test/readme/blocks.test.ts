import { describe, expect, it } from 'vitest';
import { docsBlocks, parseRecords, problems, readmeBlocks, runnable } from './blocks.js';

const MD = `# Rova
## Quick start
\`\`\`sh
npm start
\`\`\`
\`\`\`sh
curl -s http://127.0.0.1:8080/wp-json/
\`\`\`
### Keys
<!-- readme-test: skip (production setup) -->

\`\`\`bash
curl -s https://api.example.com/
\`\`\`
- a list item:

  \`\`\`sh
  curl -s http://localhost:8080/x   # → 404
  \`\`\`
\`\`\`json
{"curl": true}
\`\`\`
`;

describe('README block extraction', () => {
  it('finds sh/bash blocks with curl, numbers them, names their headings and skip reasons', () => {
    const b = readmeBlocks(MD);
    expect(b.map((x) => [x.n, x.line, x.heading, x.skip])).toEqual([
      [1, 6, 'Quick start', null],
      [2, 12, 'Quick start › Keys', 'production setup'],
      [3, 17, 'Quick start › Keys', null],
    ]);
    expect(b[2]?.code).toBe('curl -s http://localhost:8080/x   # → 404');
  });

  it('numbers the blocks of several pages through, each naming its page and its line there', () => {
    const b = docsBlocks([
      { file: 'README.md', text: MD },
      { file: 'docs/integrators/x.md', text: '# X\n\n## Keys\n\n```sh\ncurl -s http://127.0.0.1:8080/y\n```\n' },
    ]);
    expect(b.map((x) => [x.n, x.file, x.line, x.heading])).toEqual([
      [1, 'README.md', 6, 'Quick start'],
      [2, 'README.md', 12, 'Quick start › Keys'],
      [3, 'README.md', 17, 'Quick start › Keys'],
      [4, 'docs/integrators/x.md', 5, 'Keys'],
    ]);
  });

  it('points the documented address at the test server and marks announced statuses', () => {
    const code = [
      'curl -s http://127.0.0.1:8080/a   # → 401',
      'ID=$(curl -s -X POST http://127.0.0.1:8080/b \\',
      "  -d '{}' | jq .id)   # → 201",
      'curl -s http://127.0.0.1:8080/c',
      '# → 409 conflict',
      'curl -s http://127.0.0.1:8080/d',
      '# plain comment → 200 not a marker',
    ].join('\n');
    expect(runnable(code, 'http://127.0.0.1:5555').split('\n')).toEqual([
      'ROVA_EXPECT=401 curl -s http://127.0.0.1:5555/a   # → 401',
      'ID=$(ROVA_EXPECT=201 curl -s -X POST http://127.0.0.1:5555/b \\',
      "  -d '{}' | jq .id)   # → 201",
      'ROVA_EXPECT=409 curl -s http://127.0.0.1:5555/c',
      '# → 409 conflict',
      'curl -s http://127.0.0.1:5555/d',
      '# plain comment → 200 not a marker',
    ]);
  });

  it('reports unexpected statuses, unanswered requests and failing commands', () => {
    const r = parseRecords(
      [
        'CURL\t0\t200\t\t-s http://x/a \tok',
        'CURL\t0\t404\t\t-s http://x/b \t{"code":"rest_no_route"}',
        'CURL\t0\t409\t409\t-s http://x/c \t{}',
        'CURL\t0\t200\t401\t-s http://x/d \t{}',
        'CURL\t7\t000\t\t-s http://x/e \t',
        'ERR\t3\tgrep price',
      ].join('\n'),
    );
    expect(problems(r)).toEqual([
      'curl #2: -s http://x/b\n      → HTTP 404 (mark an intended failure with "# → 404"): {"code":"rest_no_route"}',
      'curl #4: -s http://x/d\n      → HTTP 200, the docs say 401: {}',
      'curl #5: -s http://x/e\n      → no HTTP answer (curl exit 7)',
      'line 3 of the block failed: grep price',
    ]);
  });
});

describe('README block second server', () => {
  it('points the documented second server (PORT=8081, http://127.0.0.1:8081) at the free port it gets', () => {
    const code = [
      'DATA_DIR=$R PORT=8081 rova serve &',
      'curl -s http://127.0.0.1:8081/readyz',
      'curl -s http://localhost:8081/x   # → 404',
      'curl -s http://127.0.0.1:8080/y',
      'EXPORT=8081 curl -s http://127.0.0.1:80812/z',
    ].join('\n');
    expect(runnable(code, 'http://127.0.0.1:5555', 6666).split('\n')).toEqual([
      'DATA_DIR=$R PORT=6666 rova serve &',
      'curl -s http://127.0.0.1:6666/readyz',
      'ROVA_EXPECT=404 curl -s http://127.0.0.1:6666/x   # → 404',
      'curl -s http://127.0.0.1:5555/y',
      'EXPORT=8081 curl -s http://127.0.0.1:80812/z',
    ]);
    // without a second port nothing but the first address changes
    expect(runnable('PORT=8081 rova serve', 'http://h')).toBe('PORT=8081 rova serve');
  });
});

describe('README block commands', () => {
  it('a JSON body over several lines belongs to its curl; apostrophes in comments do not open a quote', () => {
    const code = [
      "# the demo's currencies",
      "curl -s -X POST http://127.0.0.1:8080/a -d '{",
      '  "x": 1}\'   # → 409',
      "curl -s http://127.0.0.1:8080/b   # it's fine",
      'curl -s http://127.0.0.1:8080/c   # → 401',
    ].join('\n');
    expect(runnable(code, 'http://h').split('\n')).toEqual([
      "# the demo's currencies",
      "ROVA_EXPECT=409 curl -s -X POST http://h/a -d '{",
      '  "x": 1}\'   # → 409',
      "curl -s http://h/b   # it's fine",
      'ROVA_EXPECT=401 curl -s http://h/c   # → 401',
    ]);
  });
});
