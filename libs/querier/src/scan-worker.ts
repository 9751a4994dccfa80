// Worker thread entry of the ChunkScanPool: decodes chunks, applies the line prefilter and
// sends back only the entries that pass, with their buffers transferred (no copy).
import { parentPort } from 'node:worker_threads';
import { type ScanResult, scanChunk, transferList } from './chunk-scan';
import type { ScanReply, ScanRequest } from './scan-pool';

const port = parentPort!;
port.on('message', (req: ScanRequest) => {
  let reply: ScanReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const results: ScanResult[] = req.chunks.map((c) => scanChunk(c, req.range));
    reply = { id: req.id, results };
    transfer = results.flatMap(transferList);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply = { id: req.id, error: { name: e.name, message: e.message } };
  }
  port.postMessage(reply, transfer);
});
