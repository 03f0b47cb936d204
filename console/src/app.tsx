import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from './components/common.js';
import { AccountDetailPage, AccountsPage } from './pages/accounts.js';
import { AuditPage } from './pages/audit.js';
import { BansPage } from './pages/bans.js';
import { KeyDetailPage } from './pages/key-detail.js';
import { KeysPage } from './pages/keys.js';
import { OverviewPage } from './pages/overview.js';
import { PlansPage } from './pages/plans.js';
import { SignInPage } from './pages/sign-in.js';
import { usePath } from './router.js';
import { currentKey, onSessionChange, signOut } from './session.js';

const NAV: ReadonlyArray<readonly [path: string, label: string]> = [
  ['/', 'Overview'],
  ['/keys', 'Keys'],
  ['/accounts', 'Accounts'],
  ['/plans', 'Plans'],
  ['/bans', 'Bans'],
  ['/audit', 'Audit log'],
];

function page(path: string) {
  const [, section, id] = path.split('/');
  const numeric = id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
  switch (section) {
    case '':
      return { title: 'Overview', view: <OverviewPage /> };
    case 'keys':
      return numeric !== undefined
        ? { title: `Key ${numeric}`, view: <KeyDetailPage keyId={numeric} /> }
        : { title: 'Keys', view: <KeysPage /> };
    case 'accounts':
      return numeric !== undefined
        ? { title: `Account ${numeric}`, view: <AccountDetailPage accountId={numeric} /> }
        : { title: 'Accounts', view: <AccountsPage /> };
    case 'plans':
      return { title: 'Plans', view: <PlansPage /> };
    case 'bans':
      return { title: 'Bans', view: <BansPage /> };
    case 'audit':
      return { title: 'Audit log', view: <AuditPage /> };
    default:
      return { title: 'Not found', view: <p>There is no such page in the console.</p> };
  }
}

export function App() {
  const [key, setKey] = useState(currentKey);
  const path = usePath();
  const main = useRef<HTMLElement>(null);
  useEffect(() => onSessionChange(setKey), []);
  const { title, view } = page(path);
  useEffect(() => {
    document.title = `${key === null ? 'Sign in' : title} · Petstore admin console`;
    // A new page: focus its heading, so that a screen reader and the keyboard start there.
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [title, key]);
  if (key === null) {
    return (
      <main ref={main} id="main">
        <SignInPage />
      </main>
    );
  }
  const section = `/${path.split('/')[1] ?? ''}`;
  return (
    <>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <p class="brand">Petstore admin</p>
        <nav aria-label="Console">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <Link to={to} current={section === to}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main ref={main} id="main">
        <h1 tabIndex={-1}>{title}</h1>
        {view}
      </main>
    </>
  );
}
