// What a process serves (its ring pages, LogService view, config file, tenancy), so the pages
// ask only for what answers: no 404 in the browser's console.
import { UI_FEATURES_PATH, type UiFeatures } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { getJson } from './http';
import { instancePath } from './instance';

/**
 * The features of the process that served the page, or of instance `id` through the proxy;
 * `enabled: false` for an instance that does not run the `ui` component (it has no such page).
 */
export function useFeatures(id?: string, enabled = true) {
  return useQuery({
    queryKey: ['features', id ?? ''],
    enabled,
    queryFn: () =>
      getJson<UiFeatures>(id === undefined ? UI_FEATURES_PATH : instancePath(id, UI_FEATURES_PATH)),
    staleTime: 60_000,
  });
}
