// A line diff (longest common subsequence), enough for config files of a few thousand lines.

export type DiffKind = 'same' | 'removed' | 'added';

/** One row of a side-by-side diff: the left line, the right line, or both when equal. */
export interface DiffRow {
  kind: DiffKind | 'changed';
  left?: { number: number; text: string };
  right?: { number: number; text: string };
}

interface Op {
  kind: DiffKind;
  a?: number;
  b?: number;
}

function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  // Common head and tail are cut first, so the table covers only the part that differs.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const table: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) table.push(new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] =
        a[start + i] === b[start + j]
          ? table[i + 1][j + 1] + 1
          : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: 'same', a: i, b: i });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      ops.push({ kind: 'same', a: start + i++, b: start + j++ });
    } else if (j < m && (i === n || table[i][j + 1] >= table[i + 1][j])) {
      ops.push({ kind: 'added', b: start + j++ });
    } else {
      ops.push({ kind: 'removed', a: start + i++ });
    }
  }
  for (let k = 0; k < a.length - endA; k++) ops.push({ kind: 'same', a: endA + k, b: endB + k });
  return ops;
}

/**
 * Side-by-side rows of the diff of two texts: equal lines side by side, a run of removed lines
 * paired with the run of added lines that follows it (`changed`), the rest alone.
 */
export function diffLines(left: string, right: string): DiffRow[] {
  const a = left.split('\n');
  const b = right.split('\n');
  const ops = lcsOps(a, b);
  const rows: DiffRow[] = [];
  let k = 0;
  while (k < ops.length) {
    const op = ops[k];
    if (op.kind === 'same') {
      rows.push({
        kind: 'same',
        left: { number: op.a! + 1, text: a[op.a!] },
        right: { number: op.b! + 1, text: b[op.b!] },
      });
      k++;
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (k < ops.length && ops[k].kind !== 'same') {
      if (ops[k].kind === 'removed') removed.push(ops[k].a!);
      else added.push(ops[k].b!);
      k++;
    }
    for (let x = 0; x < Math.max(removed.length, added.length); x++) {
      const l = removed[x];
      const r = added[x];
      rows.push({
        kind:
          l !== undefined && r !== undefined ? 'changed' : l !== undefined ? 'removed' : 'added',
        ...(l !== undefined ? { left: { number: l + 1, text: a[l] } } : {}),
        ...(r !== undefined ? { right: { number: r + 1, text: b[r] } } : {}),
      });
    }
  }
  return rows;
}

/** Whether two texts differ in any line. */
export function countChanges(rows: readonly DiffRow[]): number {
  return rows.filter((r) => r.kind !== 'same').length;
}
