import { useId } from 'react';
import type { EquipmentData } from '@shared/api/actions/farmer-equipment';
import type { Plant } from '@shared/entities/equipment';
import { diagramLayout, LAYOUT } from '../utils/diagram-layout';
import { describePlant, liveLabels } from '../utils/plant';
import { PreCooling, VatTank } from './diagram-parts';

const liveOf = (live: EquipmentData | undefined, vatId: number) => (live as Record<string, EquipmentData['vat1'] | undefined> | undefined)?.[`vat${vatId}`];

/**
 * The farm's milk-cooling plant (farmer §2.13) as SVG: the milk line through the pre-cooling to
 * every vat, each with its live label and its fridge units. Its width in user units follows the
 * layout; shown at 1.6 px a unit and never wider than its container, so it scales down to a
 * 375 px phone (where the vats go two to a row).
 */
export function EquipmentDiagram({ plant, live, narrow }: { readonly plant: Plant; readonly live: EquipmentData | undefined; readonly narrow: boolean }) {
  const id = useId();
  const layout = diagramLayout(plant, narrow);
  const { margin } = LAYOUT;
  const pipeY = LAYOUT.pipeY;
  const lastHeader = layout.headerYs.at(-1);
  return (
    <svg
      className="equipment-diagram"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={Math.round(layout.width * LAYOUT.pixelsPerUnit)}
      height={Math.round(layout.height * LAYOUT.pixelsPerUnit)}
      role="group"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
    >
      <title id={`${id}-title`}>Equipment diagram</title>
      <desc id={`${id}-desc`}>{describePlant(plant).join('. ')}.</desc>
      <text className="equipment-diagram__small" x={margin} y={14}>
        Milk line
      </text>
      {/* The milk line: in at the left, through the pre-cooling, over to the riser and down to the vats' headers. */}
      <polyline
        className="equipment-diagram__pipe"
        points={`${margin},${pipeY} ${layout.riserX},${pipeY} ${layout.riserX},${lastHeader ?? pipeY}`}
      />
      {layout.headerYs.map((y, row) => {
        const first = layout.vats.find((v) => v.row === row);
        return first && <line key={y} className="equipment-diagram__pipe" x1={first.cx} y1={y} x2={layout.riserX} y2={y} />;
      })}
      <PreCooling value={plant.preCooling} x={layout.preCoolingX} />
      {layout.vats.map((placed) => (
        <VatTank key={placed.vat.id} placed={placed} labels={liveLabels(liveOf(live, placed.vat.id))} />
      ))}
    </svg>
  );
}
