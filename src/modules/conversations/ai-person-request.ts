// "Can I talk to a person?": told without the model, so the visitor reaches a person at once
// however the model would have read it. The text is folded first (lower case, accents gone), so
// one pattern covers "à"/"a"; English, German, French, Spanish, Portuguese, Italian and Dutch.
// Anything subtler is the model's to notice (it hands back on its own).
const PATTERNS = [
  /\b(talk|speak|chat|connect me)\b.{0,24}\b(to|with)\b.{0,24}\b(human|person|agent|someone|somebody|representative|operator|staff|employee|people)\b/,
  /\b(real|live|actual) (human|person|agent|people)\b/,
  /\bhuman (agent|being|please)\b/,
  /\b(menschen|mitarbeiter|mitarbeiterin|person|berater)\b.{0,24}\b(sprechen|reden|verbinden)\b/,
  /\b(parler|discuter)\b.{0,24}\b(a|avec)\b.{0,24}\b(humain|personne|conseiller|conseillere|agent)\b/,
  /\b(hablar|comunicarme)\b.{0,24}\bcon\b.{0,24}\b(humano|persona|agente|asesor)\b/,
  /\b(falar)\b.{0,24}\bcom\b.{0,24}\b(humano|pessoa|atendente|agente)\b/,
  /\b(parlare)\b.{0,24}\bcon\b.{0,24}\b(umano|persona|operatore)\b/,
  /\b(spreken|praten)\b.{0,24}\bmet\b.{0,24}\b(mens|medewerker|persoon)\b/,
];

export function asksForPerson(text: string): boolean {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ');
  return PATTERNS.some((p) => p.test(folded));
}
