import { KnownTenants } from './api/known-tenants';
import { TenantPicker } from './api/tenant';
import { ConfigPage } from './pages/ConfigPage';
import { DeletesPage } from './pages/DeletesPage';
import { ExplorePage } from './pages/ExplorePage';
import { NodePage } from './pages/NodePage';
import { OverviewPage } from './pages/OverviewPage';
import { RingsPage } from './pages/RingsPage';
import { RulesPage } from './pages/RulesPage';
import { Link, useLocation } from './router';

export const PAGES = [
  { path: '/', title: 'Cluster', Page: OverviewPage },
  { path: '/rings', title: 'Rings', Page: RingsPage },
  { path: '/config', title: 'Configuration', Page: ConfigPage },
  { path: '/rules', title: 'Rules', Page: RulesPage },
  { path: '/deletes', title: 'Delete requests', Page: DeletesPage },
  { path: '/explore', title: 'Explore', Page: ExplorePage },
] as const;

export function App() {
  const { path } = useLocation();
  const page = PAGES.find((p) => p.path === path);
  // A node's page is reached from the cluster overview, which stays the current page in the nav.
  const node = path === '/node';
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <strong className="brand">logsvc admin</strong>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <Link
              key={p.path}
              to={p.path}
              aria-current={p === page || (node && p.path === '/') ? 'page' : undefined}
            >
              {p.title}
            </Link>
          ))}
        </nav>
        <TenantPicker />
        <KnownTenants />
      </header>
      <main id="main">
        {node ? (
          <NodePage />
        ) : page ? (
          <page.Page />
        ) : (
          <section>
            <h1>Not found</h1>
            <p>
              No page at {path}. <Link to="/">Go to the cluster overview</Link>.
            </p>
          </section>
        )}
      </main>
    </>
  );
}
