// A tiny history router for the pages under /ui/: the path below the base, links that do not
// reload the page, and the back button.
import { type MouseEvent, type ReactNode, useEffect, useSyncExternalStore } from 'react';

export const BASE = '/ui';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
}

/** The current page path below /ui (`/`, `/rings`, …) and its query string. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, () => location.pathname + location.search);
  const url = new URL(href, 'http://x');
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || '/' : '/';
  return { path, search: url.searchParams };
}

/** Goes to a page path below /ui (`/rings?ring=ingester`). */
export function navigate(to: string, replace = false): void {
  const url = BASE + (to.startsWith('/') ? to : `/${to}`);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function Link(props: {
  to: string;
  children: ReactNode;
  className?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a
      href={BASE + props.to}
      onClick={onClick}
      className={props.className}
      aria-current={props['aria-current']}
    >
      {props.children}
    </a>
  );
}

/** Sets the document title while a page is shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · logsvc admin`;
  }, [title]);
}
