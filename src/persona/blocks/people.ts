/**
 * Name pools and the general life pools (occupations by age, hobbies and habits) the generator
 * draws from. Names come from many cultures on purpose: the simulated users should not all be
 * Emily and James. Data only; no logic beyond tiny lookups.
 */

/** Given names read as women's names in the stories (used for she/her users and female roles). */
export const FEMALE_NAMES = [
  'Amara', 'Priya', 'Mei', 'Sofia', 'Fatima', 'Hannah', 'Yuki', 'Chiamaka', 'Lucía', 'Ingrid',
  'Aisha', 'Grace', 'Nadia', 'Leila', 'Thandi', 'Ana', 'Olga', 'Sunita', 'Hye-jin', 'Maeve',
  'Rosa', 'Zainab', 'Claire', 'Tamar', 'Kateryna', 'Ifeoma', 'Beatriz', 'Noura', 'Linh', 'Siobhan',
  'Marisol', 'Keiko', 'Ayesha', 'Freya', 'Esi', 'Daniela', 'Rachel', 'Meera', 'Jia', 'Astrid',
  'Camila', 'Wanjiru', 'Elif', 'Agnieszka', 'Shreya', 'Lerato', 'Isabel', 'Naomi', 'Farah', 'Bich',
  'Paula', 'Tanya', 'Abena', 'Carmen', 'Min-seo', 'Dolores', 'Joy', 'Rukhsana', 'Helga', 'Kiri',
] as const;

/** Given names read as men's names. */
export const MALE_NAMES = [
  'Kwame', 'Arjun', 'Wei', 'Mateo', 'Omar', 'Daniel', 'Hiroshi', 'Emeka', 'Javier', 'Lars',
  'Yusuf', 'Tom', 'Dmitri', 'Sipho', 'João', 'Rahul', 'Min-jun', 'Ciaran', 'Diego', 'Tariq',
  'Ben', 'Eitan', 'Bogdan', 'Chinedu', 'Rafael', 'Karim', 'Duc', 'Seamus', 'Andrés', 'Kenji',
  'Imran', 'Magnus', 'Kofi', 'Luis', 'David', 'Vikram', 'Jun', 'Olaf', 'Santiago', 'Mwangi',
  'Emre', 'Piotr', 'Aditya', 'Thabo', 'Marco', 'Samuel', 'Bilal', 'Quang', 'Pedro', 'Ivan',
  'Nikhil', 'Kojo', 'Frank', 'Hamid', 'Tane', 'Stefan', 'Malik', 'Hyun-woo', 'Gareth', 'Ravi',
] as const;

/** Names that read as either; the they/them users draw from here. */
export const NEUTRAL_NAMES = [
  'Alex', 'Sam', 'Robin', 'Kai', 'Jordan', 'Noor', 'Ash', 'Rowan', 'Jules', 'Remy',
  'Sasha', 'Quinn', 'Eden', 'Ari', 'Charlie', 'Morgan', 'Tomi', 'Dani',
] as const;

/** Share of they/them users. */
export const THEY_SHARE = 0.08;

/** Occupations by life stage; a template may override with its own list. */
export const OCCUPATIONS = {
  teen: ['secondary school student', 'sixth-form student', 'high school junior', 'apprentice electrician'],
  young: [
    'barista', 'junior software developer', 'retail assistant', 'nursing student', 'warehouse picker',
    'graphic designer', 'call-centre agent', 'trainee accountant', 'line cook', 'delivery driver',
    'primary school teaching assistant', 'lab technician', 'junior copywriter', 'bartender',
  ],
  adult: [
    'secondary school teacher', 'nurse on a surgical ward', 'bus driver', 'project manager',
    'hairdresser', 'civil engineer', 'pharmacist', 'plumber', 'bank clerk', 'social worker',
    'data analyst', 'restaurant manager', 'physiotherapist', 'HR officer', 'carpenter',
    'dental hygienist', 'freelance translator', 'logistics coordinator', 'paramedic', 'shop owner',
  ],
  older: [
    'retired postal worker', 'school caretaker', 'accountant', 'retired nurse', 'taxi driver',
    'librarian', 'shop owner', 'retired engineer', 'part-time bookkeeper', 'site foreman',
    'church administrator', 'semi-retired electrician',
  ],
} as const;

export function occupationPoolForAge(age: number): readonly string[] {
  if (age < 18) return OCCUPATIONS.teen;
  if (age < 27) return OCCUPATIONS.young;
  if (age < 60) return OCCUPATIONS.adult;
  return OCCUPATIONS.older;
}

/**
 * General facts about a life, third person with {name}. Kept neutral about family, partner and
 * housing so they never contradict a scenario (those facts come from the template).
 */
export const GENERAL_FACTS = [
  '{name} runs on Sunday mornings, slowly, with a podcast on.',
  '{name} keeps a shoebox of old concert tickets.',
  '{name} cooks a big pot of soup every Sunday and eats it all week.',
  '{name} plays five-a-side football on Thursdays.',
  '{name} has been learning the guitar from videos for two years and still only knows four chords.',
  '{name} grew up in a small coastal town and still misses the sea.',
  '{name} is the one friends call when something needs fixing.',
  '{name} does the crossword in pen.',
  '{name} has a balcony full of tomato plants.',
  '{name} volunteers at a food bank once a month.',
  '{name} reads crime novels on the bus.',
  '{name} swims at the public pool before work when there is time.',
  '{name} hates talking on the phone and texts instead.',
  '{name} bakes bread at weekends and gives most of it away.',
  '{name} follows the local football team through every bad season.',
  '{name} moved cities twice in the last ten years.',
  '{name} sings in a community choir.',
  '{name} goes to the same café every Saturday and orders the same thing.',
  '{name} has a rescue dog called Biscuit.',
  '{name} has an old cat who sleeps on the laptop.',
  '{name} spends too much on houseplants.',
  '{name} sketches people on trains in a small notebook.',
  '{name} watches old films with subtitles on.',
  '{name} fixes bikes for neighbours for the price of a coffee.',
  '{name} keeps a running list of places to travel to one day.',
  '{name} sleeps badly and listens to the radio at night.',
  '{name} prays or meditates for ten minutes most mornings.',
  '{name} plays chess online late at night.',
  '{name} likes long walks with no particular destination.',
  '{name} grew up speaking two languages at home.',
  '{name} is trying, not very successfully, to cut down on coffee.',
  '{name} knits while watching TV.',
] as const;
