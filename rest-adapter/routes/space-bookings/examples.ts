// Request examples of the space-bookings routes (OpenAPI `example`), realistic enough to copy.

export const MAPPING_EXAMPLE = {
  spaces: {
    dataCollectionSimplyId: 'RM23-AB45-CD67',
    displayNameFieldSimplyId: 'fld-NAME-2345-6789',
    capacityFieldSimplyId: 'fld-CAPA-2345-6789',
    publicDetails: { rateLabelFieldSimplyId: 'fld-RATE-2345-6789', highlightsFieldSimplyId: 'fld-HGHL-2345-6789' },
  },
  bookings: {
    dataCollectionSimplyId: 'BK23-AB45-CD67',
    startsAtFieldSimplyId: 'fld-STRT-2345-6789',
    endsAtFieldSimplyId: 'fld-ENDS-2345-6789',
    spacesFieldSimplyId: 'fld-SPCE-2345-6789',
    titleFieldSimplyId: 'fld-TTLE-2345-6789',
    notesFieldSimplyId: 'fld-NOTE-2345-6789',
    statusFieldSimplyId: 'fld-STAT-2345-6789',
    requesterFieldSimplyId: 'fld-RQST-2345-6789',
    amountFieldSimplyId: 'fld-AMNT-2345-6789',
  },
  people: { dataCollectionSimplyId: 'PP23-AB45-CD67', displayNameFieldSimplyId: 'fld-PNME-2345-6789', emailFieldSimplyId: 'fld-MAIL-2345-6789' },
};

export const PROVISION_EXAMPLE = {
  bookingChannel: {
    name: 'Meeting rooms',
    spaceRecordSimplyIds: ['SP23-AB45-CD67', 'SP23-AB45-CD68'],
    availabilityPolicy: {
      timeZone: 'Europe/Berlin',
      leadTimeMinutes: 60,
      maximumAdvanceDays: 90,
      weeklyWindows: [
        { dayOfWeek: 'MONDAY', start: '09:00', end: '17:00' },
        { dayOfWeek: 'SATURDAY', start: '10:00', end: '14:00' },
      ],
      slotIncrementMinutes: 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 15,
      minimumDurationMinutes: 30,
      maximumDurationMinutes: 240,
      defaultDurationMinutes: 60,
      closures: [{ startsAt: '2026-12-24T00:00:00+01:00', endsAt: '2026-12-27T00:00:00+01:00', reason: 'Holidays' }],
    },
    pricing: { mode: 'PER_HOUR', currencyCode: 'EUR', amountMinorUnits: 2500 },
    bookingWriteMapping: { initialStatus: 'PENDING_APPROVAL' },
    bookingLinks: [{ name: 'Public booking page', audience: 'PUBLIC', allowAnonymousAvailability: true, paymentPolicy: 'NONE', outcomePolicy: { initialStatus: 'PENDING_APPROVAL' } }],
  },
};

const RANGE = { startsAt: '2026-03-30T10:00:00+02:00', endsAt: '2026-03-30T11:00:00+02:00' };
export const CONNECTION_AVAILABILITY_EXAMPLE = { bookingChannelSimplyId: 'bch-AB23-CD45-EF67', ...RANGE, spaceRecordSimplyIds: ['SP23-AB45-CD67'] };
export const CONNECTION_RUN_EXAMPLE = { ...CONNECTION_AVAILABILITY_EXAMPLE, title: 'Board meeting', notes: 'Projector please', expectedAmountMinorUnits: 2500 };
export const PUBLIC_AVAILABILITY_EXAMPLE = { ...RANGE };
export const PUBLIC_SLOTS_EXAMPLE = { startsAt: '2026-03-30T00:00:00+02:00', endsAt: '2026-03-31T00:00:00+02:00', durationMinutes: 60 };
export const PUBLIC_GRID_EXAMPLE = { spaceRecordSimplyId: 'SP23-AB45-CD67', fromDate: '2026-03-01', toDate: '2026-03-31', durationMinutes: 60 };
export const PUBLIC_QUOTE_EXAMPLE = { ...RANGE, spaceRecordSimplyIds: ['SP23-AB45-CD67'] };
export const PUBLIC_RUN_EXAMPLE = { ...PUBLIC_QUOTE_EXAMPLE, title: 'Team lunch' };
export const PATCH_EXAMPLE = { action: 'EDIT', bookingChannelSimplyId: 'bch-AB23-CD45-EF67', startsAt: '2026-03-30T14:00:00+02:00', endsAt: '2026-03-30T15:00:00+02:00' };
