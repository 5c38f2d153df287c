/**
 * Word lists the seeder draws names, places and text from. Some words carry
 * diacritics on purpose: search is unaccented, and the benchmark should pay
 * for that the way real data does.
 */

export const ORG_PREFIXES = [
  'Northwind', 'Blue', 'Silver', 'Atlas', 'Meridian', 'Summit', 'Harbor', 'Pioneer', 'Granite', 'Crescent',
  'Evergreen', 'Redwood', 'Cobalt', 'Falcon', 'Horizon', 'Keystone', 'Lighthouse', 'Maple', 'Nova', 'Orion',
  'Pacific', 'Quantum', 'Riverside', 'Sterling', 'Titan', 'Unity', 'Vanguard', 'Westbrook', 'Zenith', 'Aurora',
  'Beacon', 'Cedar', 'Delta', 'Eagle', 'Frontier', 'Golden', 'Highland', 'Iron', 'Juniper', 'Kestrel',
  'Lakeside', 'Monarch', 'Nordic', 'Oakridge', 'Polaris', 'Royal', 'Sapphire', 'Trident', 'Upland', 'Vertex',
  'Willow', 'Alpine', 'Bright', 'Coastal', 'Dynamo', 'Élan', 'Fjord', 'Gaia', 'Hélios', 'Ibérica',
  'Jade', 'Kronos', 'Lumière', 'Mistral', 'Nébula', 'Olympus', 'Prairie', 'Quarry', 'Solstice', 'Tundra',
];

export const ORG_CORES = [
  'Logistics', 'Analytics', 'Capital', 'Energy', 'Holdings', 'Partners', 'Systems', 'Solutions', 'Ventures', 'Media',
  'Pharma', 'Biotech', 'Foods', 'Textiles', 'Mining', 'Shipping', 'Robotics', 'Software', 'Consulting', 'Insurance',
  'Telecom', 'Aerospace', 'Agritech', 'Motors', 'Chemicals', 'Construction', 'Realty', 'Security', 'Networks', 'Labs',
  'Advisory', 'Brewing', 'Cosmetics', 'Diagnostics', 'Electronics', 'Fisheries', 'Genomics', 'Hospitality', 'Imaging', 'Jewelry',
  'Kitchens', 'Leasing', 'Machinery', 'Nutrition', 'Optics', 'Packaging', 'Publishing', 'Recycling', 'Semiconductors', 'Trading',
  'Utilities', 'Vineyards', 'Water', 'Exports', 'Freight', 'Group', 'Industries', 'Technologies', 'Studios', 'Télécom',
];

export const LEGAL_SUFFIXES = [
  'Inc.', 'Ltd', 'LLC', 'GmbH', 'S.A.', 'AG', 'plc', 'B.V.', 'Oy', 'AB', 'S.r.l.', 'Pty Ltd', 'SAS', 'Corp.', 'K.K.',
];

export const OWNERSHIP_TYPES = [
  'Private', 'Private', 'Private', 'Private', 'Public', 'Public', 'State-owned', 'Non-profit', 'Partnership', 'Cooperative',
];

export const GIVEN_NAMES_F = [
  'Maria', 'Anna', 'Sofia', 'Emma', 'Olivia', 'Chloé', 'Zoë', 'Renée', 'Inès', 'Léa',
  'Julia', 'Laura', 'Sara', 'Elena', 'Marta', 'Hannah', 'Ingrid', 'Astrid', 'Freya', 'Mila',
  'Aisha', 'Fatima', 'Yasmin', 'Mei', 'Yuki', 'Hana', 'Priya', 'Ananya', 'Camila', 'Valentina',
  'Isabel', 'Lucía', 'Paula', 'Claire', 'Amélie', 'Margaux', 'Agnieszka', 'Katarzyna', 'Małgorzata', 'Ewa',
  'Olga', 'Irina', 'Natalia', 'Tatiana', 'Grace', 'Emily', 'Charlotte', 'Amelia', 'Harper', 'Ava',
  'Nora', 'Ida', 'Elin', 'Saga', 'Maja', 'Linnéa', 'Björg', 'Siobhán', 'Aoife', 'Niamh',
  'Rosa', 'Carmen', 'Pilar', 'Beatriz', 'Joana', 'Mariana', 'Giulia', 'Chiara', 'Francesca', 'Alessia',
  'Leila', 'Noor', 'Dana', 'Tamar', 'Ruth', 'Esther', 'Naomi', 'Abigail', 'Victoria', 'Helena',
];

export const GIVEN_NAMES_M = [
  'José', 'Juan', 'Carlos', 'Luis', 'Miguel', 'Pedro', 'João', 'André', 'François', 'Étienne',
  'Louis', 'Hugo', 'Lucas', 'Noah', 'Liam', 'Oliver', 'James', 'William', 'Henry', 'Jack',
  'Søren', 'Björn', 'Lars', 'Erik', 'Magnus', 'Mikkel', 'Jörg', 'Jürgen', 'Matthias', 'Stefan',
  'Łukasz', 'Piotr', 'Tomasz', 'Paweł', 'Marek', 'Ivan', 'Dmitri', 'Sergei', 'Alexei', 'Nikolai',
  'Ahmed', 'Omar', 'Youssef', 'Karim', 'Hassan', 'Ravi', 'Arjun', 'Vikram', 'Hiroshi', 'Kenji',
  'Takeshi', 'Wei', 'Jun', 'Min-jun', 'Ji-ho', 'Mateo', 'Santiago', 'Diego', 'Sebastián', 'Tomás',
  'Marco', 'Luca', 'Matteo', 'Giovanni', 'Alessandro', 'Ümit', 'Emre', 'Mehmet', 'Can', 'Deniz',
  'David', 'Daniel', 'Samuel', 'Benjamin', 'Elias', 'Felix', 'Jonas', 'Leon', 'Finn', 'Oskar',
];

export const FAMILY_NAMES = [
  'García', 'Martínez', 'Rodríguez', 'López', 'González', 'Hernández', 'Pérez', 'Sánchez', 'Ramírez', 'Torres',
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor',
  'Dubois', 'Durand', 'Lefèvre', 'Moreau', 'Laurent', 'Simon', 'Michel', 'Leroy', 'Roux', 'Fournier',
  'Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak',
  'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco',
  'Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Carvalho', 'Almeida', 'Gonçalves', 'Ribeiro',
  'Jensen', 'Nielsen', 'Hansen', 'Pedersen', 'Andersen', 'Larsen', 'Sørensen', 'Johansson', 'Karlsson', 'Nilsson',
  'Ivanov', 'Smirnov', 'Kuznetsov', 'Popov', 'Volkov', 'Sokolov', 'Lebedev', 'Kozlov', 'Novikov', 'Morozov',
  'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Öztürk', 'Aydın', 'Arslan', 'Doğan', 'Kılıç',
  'Tanaka', 'Suzuki', 'Takahashi', 'Watanabe', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kim', 'Lee', 'Park',
  'Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Patel', 'Sharma', 'Singh', 'Kumar', 'Gupta',
  "O'Brien", "O'Connor", 'Murphy', 'Kelly', 'Walsh', 'Byrne', 'Ryan', 'McCarthy', 'Doyle', 'Gallagher',
  'Cohen', 'Levi', 'Mizrahi', 'Haddad', 'Khoury', 'Nasser', 'Mansour', 'Farouk', 'Hakimi', 'Benali',
];

export const CITIES = [
  'New York', 'London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Lisbon', 'Amsterdam', 'Brussels', 'Vienna',
  'Zürich', 'Genève', 'München', 'Düsseldorf', 'Köln', 'Kraków', 'Gdańsk', 'Warsaw', 'Prague', 'Budapest',
  'São Paulo', 'Bogotá', 'Medellín', 'Ciudad de México', 'Montréal', 'Québec', 'Toronto', 'Vancouver', 'Chicago', 'Boston',
  'San Francisco', 'Los Angeles', 'Seattle', 'Austin', 'Miami', 'Atlanta', 'Denver', 'Dallas', 'Houston', 'Washington',
  'Stockholm', 'Malmö', 'Göteborg', 'Oslo', 'Copenhagen', 'Århus', 'Helsinki', 'Reykjavík', 'Dublin', 'Edinburgh',
  'Istanbul', 'İzmir', 'Athens', 'Thessaloniki', 'Tel Aviv', 'Dubai', 'Doha', 'Riyadh', 'Cairo', 'Casablanca',
  'Lagos', 'Nairobi', 'Johannesburg', 'Cape Town', 'Mumbai', 'Delhi', 'Bengaluru', 'Singapore', 'Hong Kong', 'Shanghai',
  'Beijing', 'Tokyo', 'Osaka', 'Seoul', 'Taipei', 'Sydney', 'Melbourne', 'Auckland', 'Buenos Aires', 'Santiago',
  'Lima', 'Valparaíso', 'Curaçao', 'Saint-Étienne', 'Besançon', 'Orléans', 'Nîmes', 'Málaga', 'Córdoba', 'Logroño',
];

export const COUNTRIES = [
  'United States', 'United Kingdom', 'France', 'Germany', 'Spain', 'Italy', 'Portugal', 'Netherlands', 'Belgium', 'Austria',
  'Switzerland', 'Poland', 'Czechia', 'Hungary', 'Brazil', 'Colombia', 'México', 'Canada', 'Sweden', 'Norway',
  'Denmark', 'Finland', 'Iceland', 'Ireland', 'Türkiye', 'Greece', 'Israel', 'UAE', 'Qatar', 'Egypt',
  'Morocco', 'Nigeria', 'Kenya', 'South Africa', 'India', 'Singapore', 'China', 'Japan', 'South Korea', 'Australia',
  'New Zealand', 'Argentina', 'Chile', 'Perú', 'Curaçao',
];

export const JOB_TITLES = [
  'Managing Partner', 'Chief Executive Officer', 'Chief Financial Officer', 'Head of Research', 'Senior Analyst',
  'Investment Director', 'Board Member', 'Founder', 'Co-founder', 'General Counsel', 'Head of Compliance',
  'Procurement Manager', 'Sales Director', 'Chief Technology Officer', 'Portfolio Manager', 'Journalist',
  'Economist', 'Consultant', 'Professor', 'Diplomat',
];

export const EVENTS = [
  'Web Summit', 'Davos Forum', 'MWC Barcelona', 'CES', 'Slush', 'VivaTech', 'Money20/20', 'SaaStr', 'Collision',
  'RSA Conference', 'Hannover Messe', 'IFA Berlin', 'Cannes Lions', 'SXSW', 'Paris Air Show',
];

export const MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'proton.me', 'yahoo.com', 'icloud.com', 'gmx.de', 'orange.fr'];
