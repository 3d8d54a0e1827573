import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ENQUIRY_PRODUCTS, MSG_ENQUIRY_EMPTY, MSG_ENQUIRY_SENT, type EnquiryProduct, type EnquiryProducts } from '@shared/api/actions/profile';
import type { Farm } from '@shared/entities/farm';
import type { User } from '@shared/entities/user';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { enquiryProfileQuery, submitEnquiry } from '../api/profile';
import { PersonFields, type Verifiable } from './person-fields';
import { VerifyEmailDialog, VerifyPhoneDialog } from './verify-dialogs';
import './profile.css';

const NOTHING: EnquiryProducts = { water: false, effluent: false, soil: false, weather: false, grain: false, asset: false, dairy: false };

/** /dts/survey (farmer §2.16): the person, their supply numbers, and the products they are interested in. */
export function EnquiryPage() {
  const client = useApiClient();
  const query = useQuery(enquiryProfileQuery(client));
  const [open, setOpen] = useState<Verifiable | null>(null);

  return (
    <section className="profile">
      <h1 className="page__title">Enquiry</h1>
      {!query.data ? (
        <p className="page__note">{query.isError ? 'Your details could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          <PersonCard user={query.data.user} onVerify={setOpen} />
          <SupplyNumbers farms={query.data.farms} />
          <ProductsForm />
        </>
      )}
      {open === 'email' && <VerifyEmailDialog onClose={() => setOpen(null)} />}
      {open === 'phone' && <VerifyPhoneDialog onClose={() => setOpen(null)} />}
    </section>
  );
}

function PersonCard({ user, onVerify }: { readonly user: User; readonly onVerify: (what: Verifiable) => void }) {
  return (
    <section className="card" aria-label="Profile">
      <h2 className="card__title">Profile</h2>
      <PersonFields user={user} onVerify={onVerify} />
    </section>
  );
}

/** One ticked, disabled checkbox per farm, labelled by its supply number (§2.16). */
function SupplyNumbers({ farms }: { readonly farms: readonly Farm[] }) {
  return (
    <section className="card" aria-label="Supply Number">
      <h2 className="card__title">Supply Number</h2>
      {farms.length === 0 ? (
        <p className="page__note">No farm is linked to your account yet.</p>
      ) : (
        <div className="profile__checks">
          {farms.map((farm) => (
            <label key={farm._id} className="profile__check">
              <input type="checkbox" checked disabled readOnly />
              {farm.fonterra_id}
            </label>
          ))}
        </div>
      )}
    </section>
  );
}

function ProductsForm() {
  const client = useApiClient();
  const snackbar = useSnackbar();
  const [products, setProducts] = useState<EnquiryProducts>(NOTHING);
  const [empty, setEmpty] = useState(false);
  const errorId = useId();
  const send = useMutation({
    mutationFn: () => submitEnquiry(client, products),
    onSuccess: (message) => {
      snackbar.show(message || MSG_ENQUIRY_SENT, 'success');
      setProducts(NOTHING);
    },
  });
  const flip = (key: EnquiryProduct) => {
    setProducts((p) => ({ ...p, [key]: !p[key] }));
    setEmpty(false);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!Object.values(products).some(Boolean)) {
      setEmpty(true);
      return;
    }
    send.mutate();
  };
  return (
    <form className="card" aria-label="Interested in other monitoring solutions?" onSubmit={submit} noValidate>
      <h2 className="card__title">Interested in other monitoring solutions?</h2>
      <p className="page__note">Choose and submit:</p>
      <fieldset className="profile__checks" aria-describedby={empty ? errorId : undefined} style={{ border: 0, padding: 0 }}>
        <legend className="visually-hidden">Products</legend>
        {ENQUIRY_PRODUCTS.map((p) => (
          <label key={p.key} className="profile__check">
            <input type="checkbox" checked={products[p.key]} onChange={() => flip(p.key)} />
            {p.label}
          </label>
        ))}
      </fieldset>
      {empty && (
        <p id={errorId} className="profile__error" role="alert">
          {MSG_ENQUIRY_EMPTY}
        </p>
      )}
      <div className="profile__actions">
        <button type="submit" className="button button--primary" disabled={send.isPending}>
          Submit
        </button>
      </div>
    </form>
  );
}
