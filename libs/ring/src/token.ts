// Where a stream lives on the ring: Loki's `TokenFor` (distributor/distributor.go), FNV-1 32 of
// the tenant ID followed by the stream's label text.

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

function fnv1(hash: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  let h = hash;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h, FNV32_PRIME) ^ bytes[i];
  return h >>> 0;
}

/** The ring token of a tenant's stream, from its canonical label text (`{a="1", b="2"}`). */
export function tokenFor(tenant: string, labelsText: string): number {
  return fnv1(fnv1(FNV32_OFFSET, tenant), labelsText);
}
