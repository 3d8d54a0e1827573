import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useOutletContext } from 'react-router-dom';
import { useUrlText } from '../../../lib/use-url-text';
import { HERD_LABEL, herdText, MSG_OWN_ROLE, ROLE_CHOICES, type AdminUser, type RoleChoice } from '@shared/api/actions/admin-user';
import { AuditList } from '../../../components/audit-list';
import { DataTable, type Column } from '../../../components/data-table';
import { useSnackbar } from '../../../components/snackbar';
import { PageNav } from '../../../components/page-nav';
import { useApiClient } from '../../../lib/api-client-provider';
import { setHerd, setRole, userAuditQuery, usersQuery, USERS_LIST_KEY } from '../api/users';
import { pageCount, pageOf, roleChoiceOf, searchUsers, splitByRole, withRole } from '../utils/users';
import { ChoiceMenu, type Choice } from './choice-menu';
import './users.css';

/** What this page reads of the shell's context: who is signed in. */
interface UsersContext {
  readonly user: { readonly _id: string };
}

/** operator §6's labels for the rights each role gives. */
const ROLE_MENU: readonly Choice<RoleChoice>[] = ROLE_CHOICES.map((r) => ({
  value: r,
  label: r,
  hint: r === 'Admin' ? 'Have administrative rights' : r === 'Installer' ? 'Have installer rights' : undefined,
}));
const HERD_MENU: readonly Choice<'1' | '0'>[] = [
  { value: '1', label: HERD_LABEL },
  { value: '0', label: 'None' },
];

const createDate = (iso: string) => new Date(iso).toLocaleDateString('en-NZ', { day: '2-digit', month: 'short', year: 'numeric' });
const nameOf = (u: AdminUser) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** The columns every users table opens with (operator §2). */
const NAME_COLUMNS: readonly Column<AdminUser>[] = [
  { header: 'First Name', cell: (u) => u.firstName },
  { header: 'Last Name', cell: (u) => u.lastName },
  { header: 'Email', cell: (u) => u.email },
  { header: 'Phone', cell: (u) => u.phone },
];

/** /dts/users (operator §2 Admin users): Admin only; the server decides. */
export function UsersPage() {
  const { user: me } = useOutletContext<UsersContext>();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const list = useQuery(usersQuery(client));
  const audit = useQuery(userAuditQuery(client));
  // ?search= (the operator search's user match) fills the search box.
  const [keyword, setKeyword] = useUrlText('search');
  const [page, setPage] = useState(1);

  /** operator §4: the table changes at once; the server's answer (or a reload after a refusal) settles it. */
  const patch = (id: string, change: (u: AdminUser) => AdminUser) =>
    queryClient.setQueryData<AdminUser[]>(USERS_LIST_KEY, (old) => old?.map((u) => (u._id === id ? change(u) : u)));
  const settle = async () => {
    await queryClient.invalidateQueries({ queryKey: ['admin-users'] });
  };
  const role = useMutation({
    mutationFn: ({ u, choice }: { u: AdminUser; choice: RoleChoice }) => setRole(client, u._id, choice),
    onMutate: ({ u, choice }) => patch(u._id, (x) => withRole(x, choice)),
    onSettled: settle,
  });
  const herd = useMutation({
    mutationFn: ({ u, flag }: { u: AdminUser; flag: 0 | 1 }) => setHerd(client, u._id, flag),
    onMutate: ({ u, flag }) => patch(u._id, (x) => ({ ...x, is_herd_enabled: flag })),
    onSettled: settle,
  });

  const pickRole = (u: AdminUser, choice: RoleChoice) => {
    // operator §5: barred here as on the server, with the spec's snackbar.
    if (u._id === me._id) return snackbar.show(MSG_OWN_ROLE, 'error');
    if (choice !== roleChoiceOf(u)) role.mutate({ u, choice });
  };
  const roleCell = (u: AdminUser) => (
    <>
      <span className="users__role">{u.role}</span>
      {u.partner_roles.filter((p) => p !== u.role).map((p) => (
        <span key={p} className="users__partner">
          {p}
        </span>
      ))}
      <ChoiceMenu label={`Change role of ${nameOf(u)}`} button={<PencilIcon />} choices={ROLE_MENU} current={roleChoiceOf(u)} onPick={(c) => pickRole(u, c)} />
    </>
  );

  const groups = splitByRole(list.data ?? []);
  const found = searchUsers(groups.others, keyword);
  const pages = pageCount(found.length);
  const shownPage = Math.min(page, pages);

  return (
    <section className="users">
      <h1 className="page__title">Users</h1>
      <p className="page__note users__note">
        A role change takes effect at the user&apos;s next sign-in or token refresh (within an hour); until then they keep the rights they signed in with.
      </p>
      {!list.data ? (
        <p className="page__note">{list.isError ? 'The users could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <StaffTable title="Admins" users={groups.admins} roleCell={roleCell} />
          <StaffTable title="Installers" users={groups.installers} roleCell={roleCell} />
          <h2 className="users__title" id="users-others">
            Users
          </h2>
          <input
            type="search"
            className="users__search"
            aria-label="Search users"
            placeholder="name, phone, email"
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              setPage(1);
            }}
          />
          <div className="users__scroll">
            <DataTable
              className="users__table"
              aria-labelledby="users-others"
              rowKey={(u) => u._id}
              rows={pageOf(found, shownPage)}
              columns={[
                ...NAME_COLUMNS,
                {
                  header: 'Herdsman',
                  cell: (u) => (
                    <>
                      <span className="users__herd">{herdText(u.is_herd_enabled)}</span>
                      <ChoiceMenu
                        label={`Herdsman setting of ${nameOf(u)}`}
                        button={<PencilIcon />}
                        choices={HERD_MENU}
                        current={u.is_herd_enabled === 1 ? '1' : '0'}
                        onPick={(v) => {
                          const flag = v === '1' ? 1 : 0;
                          if (flag !== u.is_herd_enabled) herd.mutate({ u, flag });
                        }}
                      />
                    </>
                  ),
                },
                { header: 'Role', cell: roleCell },
              ]}
            />
            {found.length === 0 && <p className="page__note">No users match.</p>}
          </div>
          <PageNav className="users__pages" label="Users pages" page={shownPage} pages={pages} onPage={setPage} />
        </>
      )}
      <AuditList entries={audit.data} failed={audit.isError} />
    </section>
  );
}

/** The Admins and Installers tables (operator §2): never filtered or paged (§5). */
function StaffTable({ title, users, roleCell }: { readonly title: string; readonly users: readonly AdminUser[]; readonly roleCell: (u: AdminUser) => ReactNode }) {
  const id = `users-${title.toLowerCase()}`;
  return (
    <>
      <h2 className="users__title" id={id}>
        {title}
      </h2>
      <div className="users__scroll">
        <DataTable
          className="users__table"
          aria-labelledby={id}
          rowKey={(u) => u._id}
          rows={users}
          columns={[...NAME_COLUMNS, { header: 'Create Date', cell: (u) => createDate(u.created_at) }, { header: 'Role', cell: roleCell }]}
        />
        {users.length === 0 && <p className="page__note">None.</p>}
      </div>
    </>
  );
}

function PencilIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zm17.71-10.21a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z" />
    </svg>
  );
}
