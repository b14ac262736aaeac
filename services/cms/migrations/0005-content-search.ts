import type { Migration } from '@platform/db';

export const search: Migration = {
  name: '005_content_search',
  async up(db) {
    // The project's search language is stored with each row (as written), so the generated
    // vector stays immutable: title above content above metadata strings.
    await db.raw(`ALTER TABLE content_items
      ADD COLUMN search_language regconfig NOT NULL DEFAULT 'simple',
      ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector(search_language, title), 'A') ||
        setweight(to_tsvector(search_language, content), 'B') ||
        setweight(jsonb_to_tsvector(search_language, metadata, '["string"]'), 'C')
      ) STORED`);
    await db.raw(`CREATE INDEX content_items_search ON content_items USING gin (search)`);
  },
  async down(db) {
    await db.raw(`ALTER TABLE content_items DROP COLUMN search, DROP COLUMN search_language`);
  },
};
