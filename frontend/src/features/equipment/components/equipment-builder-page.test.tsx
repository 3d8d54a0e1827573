import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { itemsOf, type EquipmentItem, type Plant } from '@shared/entities/equipment';
import { build } from '../../../testing/build';
import type { FakeHandler } from '../../../testing/fake-api';
import { openFarmerScreen, withSelectedFarm } from '../../../testing/selected-farm';

vi.mock('aws-amplify/auth', () => import('../../../testing/signed-out-auth'));

withSelectedFarm('farm-1');

const STEPS = ['Setting the pre-cooling system', 'Setting the refrigerator system', 'Finished'];
const PRO: Plant = { preCooling: 1, vats: [{ id: 1, value: 1, sub_value: 1 }, { id: 2, value: 2, sub_value: 3 }] };

/** The builder with the farm's plant as stored; EQUIPMENT_UPDATE answers what it was sent (the server sorts nothing here). */
const open = ({ plant = PRO, update }: { plant?: Plant; update?: FakeHandler } = {}) => {
  let stored: EquipmentItem[] = itemsOf(plant);
  return openFarmerScreen(
    '/dts/equipment/builder',
    {
      EQUIPMENT_GET: () => stored,
      EQUIPMENT_DATA_GET: () => ({ vat1: null, vat2: null }),
      EQUIPMENT_UPDATE:
        update ??
        ((fields) => {
          stored = JSON.parse(fields.get('equipment') ?? '[]') as EquipmentItem[];
          return stored;
        }),
    },
    { farms: [build.farm({ _id: 'farm-1', install_numVats: 2 })], ready: () => screen.findByRole('radio', { name: 'Chilling' }, { timeout: 5_000 }) },
  );
};

const step = (title: string) => screen.getByRole('heading', { level: 2, name: title }).closest('li') as HTMLElement;
const current = () => screen.getAllByRole('listitem').find((li) => li.getAttribute('aria-current') === 'step');
const vatGroup = (n: number) => screen.getByRole('group', { name: `Vat ${n}` });
const radio = (group: HTMLElement, legend: string, name: string) => within(within(group).getByRole('group', { name: legend })).getByRole('radio', { name });

describe('/dts/equipment/builder (farmer §2.13, §4)', () => {
  it("is a vertical stepper with the spec's three steps, starting at the first with Back disabled and Next", async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Equipment builder' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Steps' });
    expect(within(list).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(STEPS);
    expect(current()).toBe(step(STEPS[0] as string));
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Finish' })).not.toBeInTheDocument();
  });

  it('step 1 lists the pre-cooling entries as radios in a fieldset with its legend, the stored one chosen', async () => {
    await open();
    const group = screen.getByRole('group', { name: 'Pre-cooling system' });
    expect(group.tagName.toLowerCase()).toBe('fieldset');
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['None', 'Chilling', 'Ice Bank']);
    expect(within(group).getByRole('radio', { name: 'Chilling' })).toBeChecked();
  });

  it("step 2 lists each 'Vat {id}' with a vat type and a sub-type radio; a Vat has Fridge1 only, a Vat with sidewall Fridge1 to Fridge3", async () => {
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(current()).toBe(step(STEPS[1] as string));
    const one = vatGroup(1);
    const two = vatGroup(2);
    expect(within(one).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Vat', 'Vat with sidewall', 'Fridge1']);
    expect(radio(one, 'Vat type', 'Vat')).toBeChecked();
    expect(radio(one, 'Sub-type', 'Fridge1')).toBeChecked();
    expect(within(within(two).getByRole('group', { name: 'Sub-type' })).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Fridge1', 'Fridge2', 'Fridge3']);
    expect(radio(two, 'Vat type', 'Vat with sidewall')).toBeChecked();
    expect(radio(two, 'Sub-type', 'Fridge3')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();
  });

  it('choosing a vat type resets its sub-type to 1 (Fridge1)', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(radio(vatGroup(2), 'Vat type', 'Vat'));
    expect(radio(vatGroup(2), 'Sub-type', 'Fridge1')).toBeChecked();
    await user.click(radio(vatGroup(2), 'Vat type', 'Vat with sidewall'));
    expect(radio(vatGroup(2), 'Sub-type', 'Fridge1')).toBeChecked();
    await user.click(radio(vatGroup(2), 'Sub-type', 'Fridge2'));
    expect(radio(vatGroup(2), 'Sub-type', 'Fridge2')).toBeChecked();
    // Vat 1 is its own group: untouched.
    expect(radio(vatGroup(1), 'Vat type', 'Vat')).toBeChecked();
  });

  it('Finish (the last step) saves the whole set with EQUIPMENT_UPDATE and returns to /dts/equipment, which draws it', async () => {
    const { user, api, router } = await open();
    await user.click(screen.getByRole('radio', { name: 'Ice Bank' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(radio(vatGroup(2), 'Sub-type', 'Fridge2'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(current()).toBe(step('Finished'));
    expect(within(step('Finished')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Pre-cooling: Ice Bank', 'Vat 1: Vat, Fridge1', 'Vat 2: Vat with sidewall, Fridge2']);
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    expect(api.callsOf('EQUIPMENT_UPDATE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Finish' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/equipment'));
    const call = api.callsOf('EQUIPMENT_UPDATE')[0];
    expect(call?.path).toBe('/api/farmer/equipment');
    expect(call?.fields.get('farm')).toBe('farm-1');
    expect(api.jsonField('EQUIPMENT_UPDATE', 'equipment')).toEqual([
      { type: 1, id: 1, value: 2, sub_value: 0 },
      { type: 2, id: 1, value: 1, sub_value: 1 },
      { type: 2, id: 2, value: 2, sub_value: 2 },
    ]);
    const svg = await screen.findByRole('group', { name: 'Equipment diagram' });
    expect(within(svg).getByRole('group', { name: 'Pre-cooling: Ice Bank' })).toBeInTheDocument();
    expect(within(within(svg).getByRole('group', { name: 'Vat 2' })).getAllByRole('img', { name: /^Fridge unit/ })).toHaveLength(2);
  });

  it('works by keyboard alone: arrow keys choose within a group, Tab reaches Next, Back and Finish, focus follows the step', async () => {
    const { user, api, router } = await open({ plant: { preCooling: 0, vats: [{ id: 1, value: 1, sub_value: 1 }] } });
    // From the first step's title (the shell's menu and tabs come before it in the tab order).
    act(() => screen.getByRole('heading', { level: 2, name: STEPS[0] }).focus());
    await user.tab();
    expect(screen.getByRole('radio', { name: 'None' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Ice Bank' })).toBeChecked();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 2, name: STEPS[1] })).toHaveFocus();

    await user.tab();
    expect(radio(vatGroup(1), 'Vat type', 'Vat')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(radio(vatGroup(1), 'Vat type', 'Vat with sidewall')).toBeChecked();
    await user.tab();
    expect(radio(vatGroup(1), 'Sub-type', 'Fridge1')).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(radio(vatGroup(1), 'Sub-type', 'Fridge3')).toBeChecked();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByRole('heading', { level: 2, name: STEPS[0] })).toHaveFocus();
    expect(screen.getByRole('radio', { name: 'Ice Bank' })).toBeChecked();

    await user.tab();
    await user.tab();
    await user.keyboard('{Enter}');
    await user.tab();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 2, name: 'Finished' })).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Finish' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dts/equipment'));
    expect(api.jsonField('EQUIPMENT_UPDATE', 'equipment')).toEqual([
      { type: 1, id: 1, value: 2, sub_value: 0 },
      { type: 2, id: 1, value: 2, sub_value: 3 },
    ]);
  });

  it('a refused save stays on the last step and shows the server’s message', async () => {
    const { user, router } = await open({ update: () => ({ status: 422, body: { message: 'Vat 2 is not a vat of this farm.' } }) });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText('Vat 2 is not a vat of this farm.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dts/equipment/builder');
    expect(screen.getByRole('button', { name: 'Finish' })).toBeEnabled();
  });
});
