import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { OrganizationList, OrganizationRow } from '@shared/api/actions/farmer-organization';
import { labelOf } from '../utils/organization-view';

interface ListCardProps {
  /** The heading's id: the table is labelled by it. */
  readonly id: string;
  readonly title: string;
  /** The organization Admin's add button beside the heading. */
  readonly action: ReactNode;
  /** Shown instead of the table when the list is empty. */
  readonly emptyText: string | undefined;
  readonly head: ReactNode;
  readonly children: ReactNode;
}

/** A card of the organization page: a heading with its add button, then the list's table or a note that it is empty. */
function ListCard({ id, title, action, emptyText, head, children }: ListCardProps) {
  return (
    <div className="card organization__card">
      <div className="organization__card-heading">
        <h2 className="card__title" id={id}>
          {title}
        </h2>
        {action}
      </div>
      {emptyText !== undefined ? (
        <p className="page__note">{emptyText}</p>
      ) : (
        <div className="organization__scroll">
          <table className="organization__table" aria-labelledby={id}>
            <thead>
              <tr>{head}</tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
      )}
    </div>
  );
}

interface SubsProps {
  readonly answer: OrganizationList;
  /** The caller is the organization's Admin: add, edit and delete are shown (the server decides them). */
  readonly admin: boolean;
  readonly linkTo: (row: OrganizationRow) => string;
  readonly onAdd: () => void;
  readonly editButton: (row: OrganizationRow) => ReactNode;
  readonly onDelete: (row: OrganizationRow) => void;
}

/** §2.12: the sub-organizations (each a link one level down) and the farms of the current organization. */
export function SubOrganizationsCard({ answer, admin, linkTo, onAdd, editButton, onDelete }: SubsProps) {
  const current = answer.currentFarm ?? null;
  return (
    <ListCard
      id="organization-subs"
      title={current ? 'Sub-organization' : 'All Organization'}
      action={
        admin && (
          <button type="button" className="button button--primary" onClick={onAdd}>
            Add a sub-organization
          </button>
        )
      }
      emptyText={answer.listSub.length === 0 ? (current ? 'No sub-organizations or farms yet.' : 'You are not in an organization.') : undefined}
      head={
        <>
          <th scope="col">Name</th>
          <th scope="col">Supply id</th>
          <th scope="col">Tag</th>
          {admin && <th scope="col">Actions</th>}
        </>
      }
    >
      {answer.listSub.map((row) => (
        <tr key={`${row.is_farm ? 'farm' : 'org'}-${row._id}`}>
          <td>{row.is_farm ? labelOf(row) : <Link to={linkTo(row)}>{labelOf(row)}</Link>}</td>
          <td>{row.fonterra_id ?? ''}</td>
          <td>
            <span className="organization__chip">{row.tag}</span>
          </td>
          {admin && (
            <td className="organization__actions">
              {!row.is_farm && (
                <>
                  {editButton(row)}
                  <button type="button" className="button button--text" aria-label={`Delete ${labelOf(row)}`} onClick={() => onDelete(row)}>
                    Delete
                  </button>
                </>
              )}
            </td>
          )}
        </tr>
      ))}
    </ListCard>
  );
}

type User = OrganizationList['listUser'][number];

interface UsersProps {
  readonly answer: OrganizationList;
  readonly admin: boolean;
  readonly onAdd: () => void;
  readonly onDelete: (user: User) => void;
}

/** §2.12: the users linked to the current organization itself, with their roles. */
export function UsersCard({ answer, admin, onAdd, onDelete }: UsersProps) {
  return (
    <ListCard
      id="organization-users"
      title="Users"
      action={
        admin && (
          <button type="button" className="button button--primary" onClick={onAdd}>
            Add a user
          </button>
        )
      }
      emptyText={answer.listUser.length === 0 ? 'No users in this organization itself; the users of the organizations above it see it too.' : undefined}
      head={
        <>
          <th scope="col">First name</th>
          <th scope="col">Last name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          {admin && <th scope="col">Actions</th>}
        </>
      }
    >
      {answer.listUser.map((u) => (
        <tr key={u._id}>
          <td>{u.firstName}</td>
          <td>{u.lastName}</td>
          <td className="organization__email">{u.email}</td>
          <td>{answer.listRole.find((r) => r.user_id === u._id)?.role ?? ''}</td>
          {admin && (
            <td className="organization__actions">
              <button type="button" className="button button--text" aria-label={`Delete ${u.firstName} ${u.lastName}`} onClick={() => onDelete(u)}>
                Delete
              </button>
            </td>
          )}
        </tr>
      ))}
    </ListCard>
  );
}
