/** NEW_INSTALL's form fields for a one-vat Lite install of supply number `supply` (unique per test). */
export const newInstallFields = (supply: string, imei: string): Record<string, string> => ({
  imei,
  dairySupplier: 'OTH',
  supplyNumber: supply,
  productVariant: 'Vat-Man Lite',
  numVats: '1',
  numDisplays: '0',
  lowConnectivity: 'false',
  timezone: 'Pacific/Auckland',
  vat1Diameter: '2337',
  vat1Volume: '9100',
  vat1Height: '2438',
  vat1RadarSerial: `RS-${supply}`,
  vat1OClock: '12',
});
