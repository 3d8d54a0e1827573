/** The browser saves `content` as a file named `name` (the CSV and PDF downloads). */
export const saveFile = (content: BlobPart, name: string, type: string): void => {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
};
