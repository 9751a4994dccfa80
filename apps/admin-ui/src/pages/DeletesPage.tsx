import type { DeleteRequestListItem, DeleteRequestProgress } from '@logsvc/api/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFeatures } from '../api/features';
import { getJson, request } from '../api/http';
import { countLines, queryProblem } from '../api/queries';
import { useQueryRoute } from '../api/query-route';
import { useTenant } from '../api/tenant';
import { Confirm } from '../components/Confirm';
import { DataTable } from '../components/DataTable';
import { ErrorMessage } from '../components/ErrorMessage';
import { formatNumber } from '../lib/format';
import { formatDuration, formatTime, fromLocalInput, toLocalInput } from '../lib/time';
import { useTitle } from '../router';
import { rereadAfterChange } from '../api/reread';

interface Cancel {
  id: string;
  force: boolean;
}

/**
 * Where a request is: waiting out its cancel period (and when that ends), waiting for the
 * compactor, or processing: tables and chunks done of their totals, lines removed so far.
 */
function Progress({ p, now }: { p?: DeleteRequestProgress; now: number }) {
  if (!p) return <>—</>;
  const eligibleMs = p.process_after * 1000;
  const started = p.tables_total > 0 || p.status !== 'received';
  if (!started && now < eligibleMs)
    return (
      <>
        Eligible for processing at {formatTime(p.process_after)} (in{' '}
        {formatDuration(eligibleMs - now)}); it can be canceled until then.
      </>
    );
  if (!started)
    return <>Eligible since {formatTime(p.process_after)}: waiting for the compactor.</>;
  const rewrittenDeleted = `(${formatNumber(p.chunks_rewritten)} rewritten, ${formatNumber(p.chunks_deleted)} deleted)`;
  let chunks = '';
  if (typeof p.chunks_total === 'number')
    chunks = `, ${formatNumber(Math.min(p.chunks_processed, p.chunks_total))}/${formatNumber(p.chunks_total)} chunks ${rewrittenDeleted}`;
  else if (p.chunks_processed > 0)
    chunks = `, ${formatNumber(p.chunks_processed)} chunks processed ${rewrittenDeleted}`;
  return (
    <>
      <progress max={Math.max(1, p.tables_total)} value={p.tables_done} aria-label="tables done" />{' '}
      {p.chunks_total ? (
        <>
          <progress
            max={p.chunks_total}
            value={Math.min(p.chunks_processed, p.chunks_total)}
            aria-label="chunks done"
          />{' '}
        </>
      ) : null}
      {p.tables_done}/{p.tables_total} tables{chunks}, {formatNumber(p.lines_deleted)} lines deleted
    </>
  );
}

function CreateForm({ tenant }: { tenant: string }) {
  const client = useQueryClient();
  // The preview counts the lines where a query can run: here or on a query frontend (proxied).
  const route = useQueryRoute();
  const now = Date.now();
  const [selector, setSelector] = useState('{app="example"}');
  const [filter, setFilter] = useState('');
  const [start, setStart] = useState(toLocalInput(now - 3_600_000));
  // Empty means now (Loki's default; deletes in the future are refused).
  const [end, setEnd] = useState('');
  const endMs = () => (end === '' ? Date.now() : Math.min(fromLocalInput(end), Date.now()));
  const [preview, setPreview] = useState<{ query: string; lines?: number }>();
  const query = filter.trim() === '' ? selector : `${selector} |= ${JSON.stringify(filter)}`;
  const check = useMutation({
    mutationFn: async () => {
      const problem = await queryProblem(query);
      if (problem) throw new Error(problem);
      if (route.cannotRun) return undefined;
      return countLines(tenant, query, fromLocalInput(start), endMs(), route.pathOf);
    },
    onSuccess: (lines) => setPreview({ query, lines }),
  });
  const create = useMutation({
    mutationFn: () =>
      request('/loki/api/v1/delete', {
        method: 'POST',
        tenant,
        params: {
          query,
          start: String(Math.floor(fromLocalInput(start) / 1000)),
          end: String(Math.floor(endMs() / 1000)),
        },
      }),
    onSuccess: () => {
      setPreview(undefined);
      void rereadAfterChange(client, ['deletes', tenant]);
    },
    onError: () => setPreview(undefined),
  });
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        check.mutate();
      }}
    >
      <h2>New delete request</h2>
      <p className="row">
        <label>
          Stream selector{' '}
          <input
            value={selector}
            onChange={(e) => setSelector(e.target.value)}
            size={30}
            required
          />
        </label>
        <label>
          Line contains (optional){' '}
          <input value={filter} onChange={(e) => setFilter(e.target.value)} size={20} />
        </label>
      </p>
      <p className="row">
        <label>
          From{' '}
          <input type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
        </label>
        <label>
          To (empty: now){' '}
          <input type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
        </label>
        <button type="submit" disabled={check.isPending}>
          Preview deletion
        </button>
      </p>
      {route.via && (
        <p className="small">
          This process runs no querier: the preview&apos;s lines are counted on {route.via.id}.
        </p>
      )}
      <ErrorMessage error={check.error ?? create.error} />
      {create.isSuccess && <p role="status">Delete request created.</p>}
      {preview && (
        <Confirm
          title="Delete these lines?"
          confirmLabel={
            preview.lines === undefined ? 'Create delete request' : `Delete ${preview.lines} lines`
          }
          busy={create.isPending}
          onConfirm={() => create.mutate()}
          onCancel={() => setPreview(undefined)}
        >
          {preview.lines === undefined ? (
            <p>
              <code>{preview.query}</code>: the lines it matches are not counted, as this process
              runs no querier and no live instance reports one.
            </p>
          ) : (
            <p>
              <code>{preview.query}</code> matches <strong>{preview.lines}</strong> line
              {preview.lines === 1 ? '' : 's'} of tenant {tenant} in this time range.
            </p>
          )}
          <p>The compactor deletes them once the request's cancel period is over.</p>
        </Confirm>
      )}
    </form>
  );
}

/** The tenant's delete requests with their progress; create, cancel and force-cancel. */
export function DeletesPage() {
  useTitle('Delete requests');
  const { tenant } = useTenant();
  const client = useQueryClient();
  // The delete API is there only with a compactor that has retention enabled (as in Loki).
  const features = useFeatures();
  const enabled = features.data?.deletes === true;
  const list = useQuery({
    queryKey: ['deletes', tenant],
    enabled,
    queryFn: async ({ signal }) => {
      const [items, progress] = await Promise.all([
        getJson<DeleteRequestListItem[]>('/loki/api/v1/delete', { tenant, signal }),
        getJson<DeleteRequestProgress[]>('/logsvc/api/v1/delete/progress', { tenant, signal }),
      ]);
      return items.map((item) => ({
        item,
        progress: progress.find((p) => p.request_id === item.request_id),
      }));
    },
    refetchInterval: 5000,
  });
  const [cancel, setCancel] = useState<Cancel>();
  const cancelMutation = useMutation({
    mutationFn: (c: Cancel) =>
      request('/loki/api/v1/delete', {
        method: 'DELETE',
        tenant,
        params: { request_id: c.id, ...(c.force ? { force: 'true' } : {}) },
      }),
    onSettled: () => {
      setCancel(undefined);
      void rereadAfterChange(client, ['deletes', tenant]);
    },
  });
  return (
    <section>
      <h1>Delete requests of {tenant}</h1>
      <ErrorMessage error={features.error} />
      {features.data && !enabled && (
        <p role="note">
          This process serves no delete API: it needs the compactor with{' '}
          <code>compactor.retention_enabled: true</code>, as in Loki.
        </p>
      )}
      {enabled && <CreateForm tenant={tenant} />}
      <ErrorMessage error={list.error} />
      <ErrorMessage error={cancelMutation.error} prefix="Cancel refused" />
      {list.data && list.data.length === 0 && <p>No delete requests.</p>}
      {list.data && list.data.length > 0 && (
        <DataTable columns={['Query', 'Range', 'Created', 'Status', 'Progress']} action="Cancel">
          {list.data.map(({ item, progress }) => (
            <tr key={item.request_id}>
              <th scope="row">
                <code>{item.query}</code>
                <div className="small">{item.request_id}</div>
              </th>
              <td>
                {formatTime(item.start_time)} – {formatTime(item.end_time)}
              </td>
              <td>{formatTime(item.created_at)}</td>
              <td>{item.status}</td>
              <td>
                <Progress p={progress} now={Date.now()} />
              </td>
              <td>
                {/* A picked-up request is canceled only with force; a plain cancel of it
                        is refused by the server, whose reason is shown. */}
                {item.status !== 'processed' && (
                  <button
                    type="button"
                    onClick={() => setCancel({ id: item.request_id, force: false })}
                  >
                    Cancel
                  </button>
                )}{' '}
                {item.status !== 'processed' && progress?.cancelable === false && (
                  <button
                    type="button"
                    onClick={() => setCancel({ id: item.request_id, force: true })}
                  >
                    Force cancel
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {cancel && (
        <Confirm
          title={cancel.force ? 'Force-cancel this request?' : 'Cancel this request?'}
          confirmLabel={cancel.force ? 'Force cancel' : 'Cancel request'}
          busy={cancelMutation.isPending}
          onConfirm={() => cancelMutation.mutate(cancel)}
          onCancel={() => setCancel(undefined)}
        >
          {cancel.force
            ? 'The compactor has picked it up: the parts already processed stay deleted, the rest is canceled.'
            : 'Nothing has been deleted yet; the request is removed.'}
        </Confirm>
      )}
    </section>
  );
}
