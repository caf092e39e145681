import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Files an earlier version left on this node's disk (DATA_DIR/uploads/vendor-documents): 0 when none. */
export async function legacyUploads(dataDir: string): Promise<number> {
  try {
    const entries = await readdir(path.join(dataDir, 'uploads', 'vendor-documents'), { withFileTypes: true });
    return entries.filter((e) => e.isFile() && !e.name.endsWith('.tmp')).length;
  } catch {
    return 0;
  }
}
