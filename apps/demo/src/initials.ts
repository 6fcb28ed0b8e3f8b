/** Two letters for an avatar; a name ending in a number keeps it (guest10 → G10), so such names differ. */
export function initials(name: string): string {
  const letters = name.replace(/^user[_-]/i, '').replace(/[^a-z0-9]/gi, '');
  const number = /^([a-z]+)(\d{1,2})$/i.exec(letters);
  return (number ? number[1].charAt(0) + number[2] : letters.slice(0, 2) || '?').toUpperCase();
}
