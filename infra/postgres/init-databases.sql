-- Run once by the postgres image on an empty data volume (/docker-entrypoint-initdb.d):
-- one database per service plus the platform (tenancy) database. RESOLUTIONS section 9.
-- Each service migrates its own database (`node dist/migrate.js`); `admin migrate` creates
-- the platform schema.
CREATE DATABASE auth;
CREATE DATABASE billing;
CREATE DATABASE cms;
CREATE DATABASE llm;
CREATE DATABASE mailer;
CREATE DATABASE notifications;
CREATE DATABASE console;
CREATE DATABASE platform;
