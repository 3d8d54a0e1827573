import { LookupsLog } from './lookups-log';
import { MilkDataView } from './milk-data-view';

/** /dts/{partner}/milkquality (operator §2): the Milk Quality shell's sub-bar carries the title. */
export function MilkQualityPage() {
  return (
    <>
      <MilkDataView view="milkquality" />
      <LookupsLog />
    </>
  );
}

/** /dts/milkquality in the main shell (operator §2 'Milk quality data'). */
export function MilkQualityMainPage() {
  return (
    <section className="page">
      <h1 className="page__title">Milk Quality</h1>
      <MilkDataView view="milkquality" />
      <LookupsLog />
    </section>
  );
}
