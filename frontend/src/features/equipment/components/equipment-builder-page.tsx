import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { itemsOf, PRE_COOLING_VALUES, subTypesOf, VAT_VALUES, type Plant, type PreCoolingValue, type VatValue } from '@shared/entities/equipment';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { equipmentQuery, saveEquipment } from '../api/equipment';
import { describePlant, plantFromItems } from '../utils/plant';
import type { EquipmentContext } from './equipment-page';
import './equipment.css';

/** The spec's steps (farmer §2.13), 0 to 2 (§4). */
const BUILDER_STEPS = ['Setting the pre-cooling system', 'Setting the refrigerator system', 'Finished'] as const;
const LAST = BUILDER_STEPS.length - 1;

interface RadioOption {
  readonly value: number;
  readonly label: string;
}

/** A radio group: native radios in a fieldset with its legend, so arrow keys move within it and a screen reader names it. */
function RadioGroup({ legend, name, options, value, onChange, className }: {
  readonly legend: string;
  readonly name: string;
  readonly options: readonly RadioOption[];
  readonly value: number;
  readonly onChange: (value: number) => void;
  readonly className?: string;
}) {
  return (
    <fieldset className={['builder__group', className].filter(Boolean).join(' ')}>
      <legend className="builder__legend">{legend}</legend>
      <div className="builder__options">
        {options.map((o) => (
          <label key={o.value} className="builder__radio">
            <input type="radio" name={name} value={o.value} checked={o.value === value} onChange={() => onChange(o.value)} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PreCoolingStep({ plant, onChange }: { readonly plant: Plant; readonly onChange: (plant: Plant) => void }) {
  return (
    <RadioGroup
      legend="Pre-cooling system"
      name="pre-cooling"
      options={PRE_COOLING_VALUES}
      value={plant.preCooling}
      onChange={(value) => onChange({ ...plant, preCooling: value as PreCoolingValue })}
    />
  );
}

/** Step 2: a 'Vat {id}' block per vat with its type and sub-type; choosing a type resets the sub-type to 1 (§2.13). */
function RefrigeratorStep({ plant, onChange }: { readonly plant: Plant; readonly onChange: (plant: Plant) => void }) {
  if (plant.vats.length === 0) return <p className="page__note">This farm has no vats yet.</p>;
  const setVat = (id: number, change: { value: VatValue; sub_value: number }) =>
    onChange({ ...plant, vats: plant.vats.map((v) => (v.id === id ? { ...v, ...change } : v)) });
  return (
    <div className="builder__vats">
      {plant.vats.map((vat) => (
        <fieldset key={vat.id} className="builder__group builder__vat">
          <legend className="builder__legend builder__legend--vat">Vat {vat.id}</legend>
          <RadioGroup
            legend="Vat type"
            name={`vat-${vat.id}-type`}
            options={VAT_VALUES}
            value={vat.value}
            onChange={(value) => setVat(vat.id, { value: value as VatValue, sub_value: 1 })}
          />
          <RadioGroup
            legend="Sub-type"
            name={`vat-${vat.id}-sub`}
            options={subTypesOf(vat.value)}
            value={vat.sub_value}
            onChange={(sub) => setVat(vat.id, { value: vat.value, sub_value: sub })}
          />
        </fieldset>
      ))}
    </div>
  );
}

function FinishedStep({ plant }: { readonly plant: Plant }) {
  return (
    <>
      <p className="page__note">Press Finish to save this equipment:</p>
      <ul className="builder__summary">
        {describePlant(plant).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}

/** The vertical stepper with the plant being described; Finish saves it and returns to the diagram. */
function Builder({ farmId, initial }: { readonly farmId: string; readonly initial: Plant }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [plant, setPlant] = useState(initial);
  const [step, setStep] = useState(0);
  const titles = useRef<(HTMLHeadingElement | null)[]>([]);
  const moved = useRef(false);
  const save = useMutation({
    mutationFn: () => saveEquipment(client, farmId, itemsOf(plant)),
    onSuccess: async (stored) => {
      queryClient.setQueryData(equipmentQuery(client, farmId).queryKey, stored);
      await navigate(paths.equipment.to());
    },
  });

  // A keyboard or screen-reader user is taken to the step they moved to (not on the first render).
  useEffect(() => {
    if (moved.current) titles.current[step]?.focus();
  }, [step]);
  const go = (to: number) => {
    moved.current = true;
    setStep(to);
  };

  return (
    <ol className="stepper" aria-label="Steps">
      {BUILDER_STEPS.map((title, i) => {
        const state = i < step ? 'done' : i === step ? 'current' : 'todo';
        return (
          <li key={title} className={`stepper__step stepper__step--${state}`} aria-current={i === step ? 'step' : undefined}>
            <div className="stepper__header">
              <span className="stepper__icon" aria-hidden="true">
                {i < step ? '✓' : i + 1}
              </span>
              <h2
                className="stepper__title"
                tabIndex={-1}
                ref={(el) => {
                  titles.current[i] = el;
                }}
              >
                {title}
              </h2>
            </div>
            {i === step && (
              <div className="stepper__content">
                {i === 0 && <PreCoolingStep plant={plant} onChange={setPlant} />}
                {i === 1 && <RefrigeratorStep plant={plant} onChange={setPlant} />}
                {i === 2 && <FinishedStep plant={plant} />}
                <div className="stepper__actions">
                  <button type="button" className="button button--text" disabled={i === 0 || save.isPending} onClick={() => go(i - 1)}>
                    Back
                  </button>
                  {i < LAST ? (
                    <button type="button" className="button button--primary" onClick={() => go(i + 1)}>
                      Next
                    </button>
                  ) : (
                    <button type="button" className="button button--primary" disabled={save.isPending} onClick={() => save.mutate()}>
                      Finish
                    </button>
                  )}
                </div>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * /dts/equipment/builder (farmer §2.13, §4): the vertical stepper 'Setting the pre-cooling system',
 * 'Setting the refrigerator system', 'Finished', starting from the farm's plant as stored.
 * A refused save stays on the last step; the client's snackbar says why.
 */
export function EquipmentBuilderPage() {
  const { farm } = useOutletContext<EquipmentContext>();
  const client = useApiClient();
  const items = useQuery({ ...equipmentQuery(client, farm?._id ?? ''), enabled: farm !== undefined });
  return (
    <section className="page equipment-builder">
      <h1 className="page__title">Equipment builder</h1>
      {items.isPending && farm && <p className="page__note">Loading your equipment…</p>}
      {items.isError && !items.data && <p className="page__note">Your equipment could not be loaded. Open this page again shortly.</p>}
      {/* Keyed by farm, so the form starts again from the stored plant if the farm changes. */}
      {farm && items.data && <Builder key={farm._id} farmId={farm._id} initial={plantFromItems(items.data)} />}
    </section>
  );
}
