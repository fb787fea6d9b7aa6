// A partner API key on the wire: what the cabinet lists of a key in force (never the key), and the key
// itself, shown once when it is issued.
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';

export const PartnerKeyInfo = Type.Object(
  {
    mode: Type.String({ enum: ['live', 'test'] }),
    prefix: Type.String({ description: 'the first 12 characters, to recognise the key' }),
    created_at: Timestamp,
  },
  { title: 'PartnerKeyInfo' },
);

export const PartnerKey = Type.Object(
  {
    api_key: Type.String(),
    mode: Type.String({ enum: ['live', 'test'] }),
    prefix: Type.String(),
    created_at: Timestamp,
  },
  { title: 'PartnerKey' },
);
