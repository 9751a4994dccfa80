import { LOG_LEVELS_FOR_UI } from '../lib/log-levels';
import type { InstanceOverview, LogLevelResponse } from '@logsvc/api/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getJson, getText, request } from '../api/http';
import { instancePath } from '../api/instance';
import { Confirm } from '../components/Confirm';
import { ErrorMessage } from '../components/ErrorMessage';
import { rereadAfterChange } from '../api/reread';

/** `Current log level is debug` → `debug`. */
function levelOf(message: string): string {
  return message.replace(/^Current log level is /, '').trim();
}

/** Log level, flush and prepare_shutdown of one instance. */
export function InstanceActions({ instance }: { instance: InstanceOverview }) {
  const client = useQueryClient();
  const id = instance.id;
  const isIngester = instance.targets.includes('ingester');
  const level = useQuery({
    queryKey: ['log_level', id],
    queryFn: ({ signal }) => getJson<LogLevelResponse>(instancePath(id, '/log_level'), { signal }),
  });
  const prepared = useQuery({
    queryKey: ['prepare_shutdown', id],
    queryFn: ({ signal }) => getText(instancePath(id, '/ingester/prepare_shutdown'), { signal }),
    enabled: isIngester,
  });
  const [chosen, setChosen] = useState('');
  const [confirmFlush, setConfirmFlush] = useState(false);
  const setLevel = useMutation({
    mutationFn: (l: string) =>
      request(instancePath(id, '/log_level'), { method: 'POST', params: { log_level: l } }),
    onSuccess: () => rereadAfterChange(client, ['log_level', id]),
  });
  const flush = useMutation({
    mutationFn: () => request(instancePath(id, '/flush'), { method: 'POST' }),
    onSettled: () => setConfirmFlush(false),
  });
  const prepare = useMutation({
    mutationFn: (set: boolean) =>
      request(instancePath(id, '/ingester/prepare_shutdown'), { method: set ? 'POST' : 'DELETE' }),
    onSuccess: () => rereadAfterChange(client, ['prepare_shutdown', id]),
  });
  const current = level.data ? levelOf(level.data.message) : '';
  return (
    <div className="actions-panel">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) setLevel.mutate(chosen);
        }}
      >
        <label>
          Log level of {id}{' '}
          <select
            value={chosen || current}
            onChange={(e) => setChosen(e.target.value)}
            aria-describedby={`level-${id}`}
          >
            {LOG_LEVELS_FOR_UI.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>{' '}
        <button type="submit" disabled={!chosen || chosen === current || setLevel.isPending}>
          Set level
        </button>{' '}
        <span id={`level-${id}`} role="status">
          {current ? `now ${current}` : ''}
        </span>
      </form>
      <ErrorMessage error={level.error ?? setLevel.error} />
      {isIngester && (
        <>
          <p>
            <button type="button" onClick={() => setConfirmFlush(true)}>
              Flush {id}
            </button>{' '}
            <span role="status">
              {flush.isSuccess ? 'Flushed: every in-memory chunk was written to the store.' : ''}
            </span>
          </p>
          <ErrorMessage error={flush.error} />
          <p>
            prepare_shutdown:{' '}
            <strong data-testid={`prepare-${id}`}>{prepared.data?.trim() ?? '…'}</strong>{' '}
            {prepared.data?.trim() === 'set' ? (
              <button type="button" onClick={() => prepare.mutate(false)}>
                Unset prepare_shutdown
              </button>
            ) : (
              <button type="button" onClick={() => prepare.mutate(true)}>
                Set prepare_shutdown
              </button>
            )}
          </p>
          <ErrorMessage error={prepared.error ?? prepare.error} />
        </>
      )}
      {confirmFlush && (
        <Confirm
          title={`Flush ${id}?`}
          confirmLabel="Flush"
          busy={flush.isPending}
          onConfirm={() => flush.mutate()}
          onCancel={() => setConfirmFlush(false)}
        >
          Every in-memory chunk of this ingester is cut and written to the store now.
        </Confirm>
      )}
    </div>
  );
}
