/** 'YYYY-MM-DD' → 'DD/MM/YYYY', as the date picker (farmer §2.5) and the lists' ranges show a day. */
export const dayText = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
