/**
 * A Farms table item as its entity: without its keys, index keys, kind and the ingest's state
 * (which the entity schemas would refuse or the API must not show).
 */
export const strip = <T extends Record<string, unknown>>(item: T): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, gsi2pk: _g3, gsi2sk: _g4, gsi3pk: _g5, gsi3sk: _g6, kind: _k, ingest: _i, ingest_n: _in, ingest_v: _iv, ...rest } = item;
  return rest;
};
