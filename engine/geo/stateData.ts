/**
 * The US state table of SPEC §3: 50 states, the District of Columbia and 6 territories.
 * Facts only (names, postal codes, ISO 3166-2 codes, demonyms, traditional abbreviations,
 * US Coast Guard codes); the lookups and helpers live in engine/geo/states.ts.
 */
export type StateKind = 'state' | 'district' | 'territory';

export interface StateRow {
  name: string;
  usps: string;
  demonym: string;
  iso: string;
  altAbbr: string;
  uscg: string;
  kind: StateKind;
}

type Row = [name: string, usps: string, demonym: string, altAbbr: string, kind?: StateKind, uscg?: string];

const rows: Row[] = [
  ['Alabama', 'AL', 'Alabamian', 'Ala.'],
  ['Alaska', 'AK', 'Alaskan', 'Alaska'],
  ['Arizona', 'AZ', 'Arizonan', 'Ariz.'],
  ['Arkansas', 'AR', 'Arkansan', 'Ark.'],
  ['California', 'CA', 'Californian', 'Calif.'],
  ['Colorado', 'CO', 'Coloradan', 'Colo.'],
  ['Connecticut', 'CT', 'Connecticuter', 'Conn.'],
  ['Delaware', 'DE', 'Delawarean', 'Del.'],
  ['District Of Columbia', 'DC', 'Washingtonian', 'D.C.', 'district'],
  ['Florida', 'FL', 'Floridian', 'Fla.'],
  ['Georgia', 'GA', 'Georgian', 'Ga.'],
  ['Hawaii', 'HI', 'Hawaii resident', 'Hawaii'],
  ['Idaho', 'ID', 'Idahoan', 'Idaho'],
  ['Illinois', 'IL', 'Illinoisan', 'Ill.'],
  ['Indiana', 'IN', 'Hoosier', 'Ind.'],
  ['Iowa', 'IA', 'Iowan', 'Iowa'],
  ['Kansas', 'KS', 'Kansan', 'Kan.'],
  ['Kentucky', 'KY', 'Kentuckian', 'Ky.'],
  ['Louisiana', 'LA', 'Louisianian', 'La.'],
  ['Maine', 'ME', 'Mainer', 'Maine'],
  ['Maryland', 'MD', 'Marylander', 'Md.'],
  ['Massachusetts', 'MA', 'Bay Stater', 'Mass.'],
  ['Michigan', 'MI', 'Michigander', 'Mich.'],
  ['Minnesota', 'MN', 'Minnesotan', 'Minn.'],
  ['Mississippi', 'MS', 'Mississippian', 'Miss.'],
  ['Missouri', 'MO', 'Missourian', 'Mo.'],
  ['Montana', 'MT', 'Montanan', 'Mont.'],
  ['Nebraska', 'NE', 'Nebraskan', 'Neb.'],
  ['Nevada', 'NV', 'Nevadan', 'Nev.'],
  ['New Hampshire', 'NH', 'New Hampshirite', 'N.H.'],
  ['New Jersey', 'NJ', 'New Jerseyan', 'N.J.'],
  ['New Mexico', 'NM', 'New Mexican', 'N.M.'],
  ['New York', 'NY', 'New Yorker', 'N.Y.'],
  ['North Carolina', 'NC', 'North Carolinian', 'N.C.'],
  ['North Dakota', 'ND', 'North Dakotan', 'N.D.'],
  ['Ohio', 'OH', 'Ohioan', 'Ohio'],
  ['Oklahoma', 'OK', 'Oklahoman', 'Okla.'],
  ['Oregon', 'OR', 'Oregonian', 'Ore.'],
  ['Pennsylvania', 'PA', 'Pennsylvanian', 'Pa.'],
  ['Rhode Island', 'RI', 'Rhode Islander', 'R.I.'],
  ['South Carolina', 'SC', 'South Carolinian', 'S.C.'],
  ['South Dakota', 'SD', 'South Dakotan', 'S.D.'],
  ['Tennessee', 'TN', 'Tennessean', 'Tenn.'],
  ['Texas', 'TX', 'Texan', 'Texas'],
  ['Utah', 'UT', 'Utahn', 'Utah'],
  ['Vermont', 'VT', 'Vermonter', 'Vt.'],
  ['Virginia', 'VA', 'Virginian', 'Va.'],
  ['Washington', 'WA', 'Washingtonian', 'Wash.'],
  ['West Virginia', 'WV', 'West Virginian', 'W.Va.'],
  ['Wisconsin', 'WI', 'Wisconsinite', 'Wis.'],
  ['Wyoming', 'WY', 'Wyomingite', 'Wyo.'],
  ['American Samoa', 'AS', 'American Samoan', 'A.S.', 'territory'],
  ['Guam', 'GU', 'Guamanian', 'Guam', 'territory'],
  ['Northern Mariana Islands', 'MP', 'Northern Marianan', 'M.P.', 'territory', 'CM'],
  ['Puerto Rico', 'PR', 'Puerto Rican', 'P.R.', 'territory'],
  ['U.S. Virgin Islands', 'VI', 'Virgin Islander', 'V.I.', 'territory'],
  ['U.S. Minor Outlying Islands', 'UM', 'Minor Outlying Islander', 'U.M.', 'territory', ''],
];

export const STATE_ROWS: readonly StateRow[] = rows.map(([name, usps, demonym, altAbbr, kind = 'state', uscg = usps]) => ({
  name,
  usps,
  demonym,
  iso: `US-${usps}`,
  altAbbr,
  uscg,
  kind,
}));
