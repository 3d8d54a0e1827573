import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { OrganizationList, OrganizationRow } from '@shared/api/actions/farmer-organization';
import { ORGANIZATION_MESSAGES, type Organization } from '@shared/entities/organization';
import { useConfirm } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { errorTextOf, type ApiError } from '../../../lib/api-error';
import { addOrganization, addOrganizationUser, deleteOrganization, editOrganization, organizationQuery, unlinkOrganizationUser } from '../api/organization';
import { canEdit, labelOf, smsText } from '../utils/organization-view';
import { AddUserDialog } from './add-user-dialog';
import { OrganizationDrawer, type DrawerValues } from './organization-drawer';
import { SubOrganizationsCard, UsersCard } from './organization-lists';
import './organization.css';

type Editable = Pick<Organization, '_id' | 'tag' | 'name' | 'contact' | 'address' | 'email' | 'phone'>;
type DrawerState = { readonly mode: 'add' } | { readonly mode: 'edit'; readonly organization: Editable };

/** The tag a new sub-organization starts with: the level under the current one. */
const nextTag = (tag: Organization['tag']): 'Group' | 'Regional' | 'Branch' => (tag === 'Group' ? 'Regional' : 'Branch');

const valuesOf = (o: Editable): DrawerValues => ({
  tag: o.tag,
  name: o.name,
  contact: o.contact,
  address: o.address,
  email: o.email,
  phone: o.phone,
});

/**
 * /dts/group/{organization_id?}/o/{parent_id?} and /dts/organization/… (farmer §2.12): the
 * breadcrumb and tag chip, the Summary, the sub-organizations and farms, the users, and for the
 * organization role Admin the edit drawer, Add a user, unlink and delete, each delete after the
 * confirmation 'Are you sure you want to delete it?' (§5). The server decides every right; the page
 * only hides what the caller's role cannot do. A missing or foreign organization goes to /dts/dashboard.
 */
export function OrganizationPage() {
  const { organizationId = '', parentId = '' } = useParams();
  const location = useLocation();
  const route = location.pathname.startsWith('/dts/organization') ? paths.organization : paths.group;
  const navigate = useNavigate();
  const client = useApiClient();
  const snackbar = useSnackbar();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const [drawer, setDrawer] = useState<DrawerState | null>(null);
  const [addingUser, setAddingUser] = useState(false);
  const [userProblem, setUserProblem] = useState<string | null>(null);

  const toDashboard = useCallback(() => navigate(paths.milkDashboard.to(), { replace: true }), [navigate]);
  const onError = useCallback(
    (error: ApiError) => {
      if (error.status === 403 && organizationId) toDashboard();
      else snackbar.show(error.userMessage, 'error');
    },
    [organizationId, snackbar, toDashboard],
  );
  const query = useQuery(organizationQuery(client, organizationId, parentId, onError));
  const answer = query.data;
  // §7: an id was given and no currentFarm came back: the dashboard.
  useEffect(() => {
    if (answer && organizationId && !answer.currentFarm) toDashboard();
  }, [answer, organizationId, toDashboard]);

  const reload = () => queryClient.invalidateQueries({ queryKey: ['organization'] });
  const current = answer?.currentFarm ?? null;
  const save = useMutation({
    mutationFn: async ({ state, values }: { state: DrawerState; values: DrawerValues }) => {
      const form = { name: values.name, contact: values.contact, address: values.address, email: values.email, phone: values.phone };
      if (state.mode === 'add') return addOrganization(client, current?._id ?? '', { ...form, tag: values.tag === 'Farm' ? 'Branch' : values.tag });
      return editOrganization(client, state.organization._id, { ...form, tag: state.organization.tag });
    },
    onSuccess: async () => {
      setDrawer(null);
      await reload();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => deleteOrganization(client, id), onSuccess: reload });
  const unlink = useMutation({ mutationFn: (userId: string) => unlinkOrganizationUser(client, current?._id ?? '', userId), onSuccess: reload });
  const addUser = useMutation({
    mutationFn: (email: string) => addOrganizationUser(client, current?._id ?? '', email, { onError: (error) => setUserProblem(errorTextOf(error, 'The user could not be added.')) }),
    onSuccess: async () => {
      setAddingUser(false);
      await reload();
    },
  });

  const confirmDelete = (onOk: () => void) => confirm({ title: ORGANIZATION_MESSAGES.confirmDelete, onOk, onCancel: () => undefined });

  if (query.isPending) return <p className="page__note organization__loading">Loading the organization…</p>;
  if (!answer || (organizationId && !current)) {
    return (
      <section className="page organization">
        <h1 className="page__title">Organization</h1>
        <p className="page__note">The organization could not be loaded. Open this page again shortly.</p>
      </section>
    );
  }

  const admin = current !== null && canEdit(answer);
  const title = current ? labelOf(current) : 'All Organization';
  const linkTo = (row: OrganizationRow) => route.to(row._id, current?._id);

  return (
    <section className="page organization">
      <nav aria-label="Breadcrumb" className="organization__breadcrumb">
        <ol>
          <li>{current ? <Link to={route.to()}>All Organization</Link> : <span aria-current="page">All Organization</span>}</li>
          {answer.listParent.map((p, i) => (
            <li key={p._id}>
              <Link to={route.to(p._id, answer.listParent[i - 1]?._id)}>{labelOf(p)}</Link>
            </li>
          ))}
          {current && (
            <li>
              <span aria-current="page">{labelOf(current)}</span>
            </li>
          )}
        </ol>
      </nav>
      <div className="organization__heading">
        <h1 className="page__title">{title}</h1>
        {current && <span className="organization__chip">{current.tag}</span>}
        {admin && current && (
          <button type="button" className="button button--text" onClick={() => setDrawer({ mode: 'edit', organization: current })}>
            Edit
          </button>
        )}
      </div>

      {answer.summary && <SummaryCard summary={answer.summary} />}

      <SubOrganizationsCard
        answer={answer}
        admin={admin}
        linkTo={linkTo}
        onAdd={() => setDrawer({ mode: 'add' })}
        editButton={(row) => <SubEdit row={row} answer={answer} onEdit={(o) => setDrawer({ mode: 'edit', organization: o })} />}
        onDelete={(row) => confirmDelete(() => remove.mutate(row._id))}
      />

      {current && (
        <UsersCard
          answer={answer}
          admin={admin}
          onAdd={() => {
            setUserProblem(null);
            setAddingUser(true);
          }}
          onDelete={(u) => confirmDelete(() => unlink.mutate(u._id))}
        />
      )}

      {drawer && (
        <OrganizationDrawer
          mode={drawer.mode}
          initial={drawer.mode === 'edit' ? valuesOf(drawer.organization) : { tag: nextTag(current?.tag ?? 'Group'), name: '', contact: '', address: '', email: '', phone: '' }}
          saving={save.isPending}
          onSave={(values) => save.mutate({ state: drawer, values })}
          onClose={() => setDrawer(null)}
        />
      )}
      {addingUser && (
        <AddUserDialog
          adding={addUser.isPending}
          problem={userProblem}
          onAdd={(email) => {
            setUserProblem(null);
            addUser.mutate(email);
          }}
          onClose={() => setAddingUser(false)}
        />
      )}
    </section>
  );
}

/**
 * Edit of a sub-organization row: the row holds only name, supply id and tag, so the drawer is
 * filled from the sub-organization's own ORGANIZATION_LIST (the caller's role reaches it).
 */
function SubEdit({ row, answer, onEdit }: { readonly row: OrganizationRow; readonly answer: OrganizationList; readonly onEdit: (o: Organization) => void }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const open = async () => {
    try {
      const sub = await queryClient.fetchQuery(organizationQuery(client, row._id, answer.currentFarm?._id ?? '', (error) => snackbar.show(error.userMessage, 'error')));
      if (sub.currentFarm) onEdit(sub.currentFarm);
    } catch {
      // Shown by the snackbar above; the list reloads on the next change.
    }
  };
  return (
    <button type="button" className="button button--text" aria-label={`Edit ${labelOf(row)}`} onClick={() => void open()}>
      Edit
    </button>
  );
}

/** §2.12 Summary: the package and its total SMS count (§9), then each farm's allowance and this month's texts. */
function SummaryCard({ summary }: { readonly summary: NonNullable<OrganizationList['summary']> }) {
  return (
    <div className="card organization__card" role="region" aria-labelledby="organization-summary">
      <h2 className="card__title" id="organization-summary">
        Summary
      </h2>
      <dl className="organization__facts">
        <div>
          <dt>Package</dt>
          <dd>{summary.package}</dd>
        </div>
        <div>
          <dt>Total SMS</dt>
          <dd>{summary.total_sms}</dd>
        </div>
        {summary.sms_saved !== undefined && (
          <div>
            {/* Ours (Web Push): critical alerts whose push was opened in time, so no text went. */}
            <dt>Texts saved this month</dt>
            <dd>{summary.sms_saved}</dd>
          </div>
        )}
        <div>
          <dt>Farms</dt>
          <dd>{summary.farms.length}</dd>
        </div>
        <div>
          <dt>Vats</dt>
          <dd>{summary.farms.reduce((n, f) => n + f.vats, 0)}</dd>
        </div>
      </dl>
      {summary.farms.length > 0 && (
        <div className="organization__scroll">
          <table className="organization__table" aria-label="Farms of the organization">
            <thead>
              <tr>
                <th scope="col">Supply id</th>
                <th scope="col">Farm</th>
                <th scope="col">Package</th>
                <th scope="col">Vats</th>
                <th scope="col">SMS this month</th>
              </tr>
            </thead>
            <tbody>
              {summary.farms.map((f) => (
                <tr key={f._id}>
                  <td>{f.fonterra_id}</td>
                  <td>{f.name ?? ''}</td>
                  <td>{f.package}</td>
                  <td>{f.vats}</td>
                  <td>{smsText(f.sms_sent, f.sms_total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
