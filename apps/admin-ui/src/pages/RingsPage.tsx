import { RING_PAGES, type RingStatus } from '@logsvc/api/browser';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useFeatures } from '../api/features';
import { ApiError, getJson, request } from '../api/http';
import { Confirm } from '../components/Confirm';
import { DataTable } from '../components/DataTable';
import { ErrorMessage } from '../components/ErrorMessage';
import { formatDuration } from '../lib/time';
import { Link, navigate, useLocation, useTitle } from '../router';
import { OwnershipChart } from './OwnershipChart';
import { rereadAfterChange } from '../api/reread';

type RingPage = (typeof RING_PAGES)[number];

/** A ring page's JSON, or null when this server no longer has that ring (404). */
async function fetchRing(page: RingPage, signal: AbortSignal): Promise<RingStatus | null> {
  try {
    return await getJson<RingStatus>(page.path, { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

function RingView({ page, status }: { page: RingPage; status: RingStatus }) {
  const client = useQueryClient();
  const [forgetting, setForgetting] = useState<string>();
  const forget = useMutation({
    mutationFn: (id: string) =>
      request(page.path, {
        method: 'POST',
        body: new URLSearchParams({ forget: id }).toString(),
        contentType: 'application/x-www-form-urlencoded',
        accept: 'application/json',
      }),
    onSuccess: () => rereadAfterChange(client, ['ring', page.ring]),
    onSettled: () => setForgetting(undefined),
  });
  const unhealthy = status.shards.filter((s) => !s.healthy).length;
  return (
    <div>
      <h2>{page.title} ring</h2>
      <p role="status">
        {status.shards.length} member{status.shards.length === 1 ? '' : 's'}
        {unhealthy > 0 ? `, ${unhealthy} unhealthy` : ', all healthy'}.
      </p>
      <DataTable
        columns={['Member', 'State', 'Zone', 'Address', 'Heartbeat', 'Tokens', 'Ownership']}
        action="Forget"
      >
        {status.shards.map((s) => (
          <tr key={s.id} className={s.healthy ? '' : 'alert'}>
            <th scope="row">{s.id}</th>
            <td>
              <span className={`badge ${s.healthy ? 'ok' : 'bad'}`}>{s.state}</span>
            </td>
            <td>{s.zone || '—'}</td>
            <td>{s.address}</td>
            <td>{formatDuration(s.heartbeat_age_ms)} ago</td>
            <td>{s.num_tokens}</td>
            <td>{s.ownership.toFixed(1)}%</td>
            <td>
              {/* As Loki's page: only a member that stopped heartbeating can be forgotten. */}
              {!s.healthy && (
                <button type="button" onClick={() => setForgetting(s.id)}>
                  Forget
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {status.shards.length > 0 && <OwnershipChart shards={status.shards} />}
      <ErrorMessage error={forget.error} />
      {forgetting && (
        <Confirm
          title={`Forget ${forgetting}?`}
          confirmLabel="Forget"
          busy={forget.isPending}
          onConfirm={() => forget.mutate(forgetting)}
          onCancel={() => setForgetting(undefined)}
        >
          {forgetting} is removed from the {page.title.toLowerCase()} ring: its tokens go to the
          other members.
        </Confirm>
      )}
    </div>
  );
}

/**
 * Every ring this server answers for, one at a time: only the rings its features name are
 * asked for, so no page that answers 404 is polled.
 */
export function RingsPage() {
  useTitle('Rings');
  const { search } = useLocation();
  const features = useFeatures();
  const served = features.data?.rings;
  const results = useQueries({
    queries: RING_PAGES.map((page) => ({
      queryKey: ['ring', page.ring],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchRing(page, signal),
      enabled: served?.includes(page.ring) ?? false,
      refetchInterval: 5000,
    })),
  });
  const available = RING_PAGES.filter((_, i) => results[i].data);
  const selected = available.find((p) => p.ring === search.get('ring')) ?? available[0];
  const loading =
    features.isPending ||
    RING_PAGES.some((p, i) => served?.includes(p.ring) && results[i].isPending);
  const error = features.error ?? results.find((r) => r.error)?.error;
  return (
    <section>
      <h1>Rings</h1>
      <nav aria-label="Rings" className="tabs">
        {available.map((p) => (
          <Link
            key={p.ring}
            to={`/rings?ring=${p.ring}`}
            aria-current={p === selected ? 'page' : undefined}
          >
            {p.title}
          </Link>
        ))}
      </nav>
      <ErrorMessage error={error} />
      {!loading && available.length === 0 && <p>This server takes part in no ring.</p>}
      {selected && (
        <RingView
          page={selected}
          status={results[RING_PAGES.indexOf(selected)].data as RingStatus}
        />
      )}
      {loading && <p>Loading…</p>}
      {!selected && search.get('ring') && (
        <button type="button" onClick={() => navigate('/rings')}>
          Show the first ring
        </button>
      )}
    </section>
  );
}
