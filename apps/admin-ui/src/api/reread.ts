// Reading again after a change.
import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Reads the queries under `queryKey` again after a change the page made. A read still under
 * way may have been answered before the change, and invalidating alone joins it (React Query
 * cancels a running read only once the query has data): it is cancelled (its request aborted
 * where the query passes on its signal), then every matching query reads again.
 */
export async function rereadAfterChange(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
