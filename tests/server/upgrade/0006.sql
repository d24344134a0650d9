BEGIN TRANSACTION;
CREATE TABLE accounts (
	id INTEGER NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	name_fold VARCHAR(400) NOT NULL, 
	name_skeleton VARCHAR(400) NOT NULL, 
	password_hash TEXT, 
	public BOOLEAN DEFAULT 1 NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_fold), 
	UNIQUE (name_skeleton)
);
CREATE TABLE actions (
	room_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action TEXT NOT NULL, 
	"by" VARCHAR(16) NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seq), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "actions" VALUES(1,1,1,'{"type":"roll","keep":[1,2,4]}','human',1.79666198609398555753e+09);
INSERT INTO "actions" VALUES(1,2,1,'{"type":"roll","keep":[1,2,4]}','human',1.7966619861002840996e+09);
INSERT INTO "actions" VALUES(1,3,0,'{"type":"take","combination":"full-house","source":"plate"}','human',1.7966619861058828831e+09);
INSERT INTO "actions" VALUES(1,4,1,'{"type":"roll","keep":[3,4]}','human',1.79666198610972547536e+09);
INSERT INTO "actions" VALUES(1,5,1,'{"type":"roll","keep":[1,2,3,4]}','human',1.79666198611216163631e+09);
INSERT INTO "actions" VALUES(1,6,1,'{"type":"stop"}','human',1.79666198611461591727e+09);
INSERT INTO "actions" VALUES(1,7,0,'{"type":"roll","keep":[0,1,3]}','human',1.79666198611744546897e+09);
INSERT INTO "actions" VALUES(1,8,0,'{"type":"roll","keep":[0,1,3,4]}','human',1.79666198611981534961e+09);
INSERT INTO "actions" VALUES(1,9,0,'{"type":"stop"}','human',1.79666198612220597268e+09);
INSERT INTO "actions" VALUES(2,1,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79666200144432020189e+09);
INSERT INTO "actions" VALUES(2,2,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79666200144646501539e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1796662001.44839);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79666200145026731492e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"rethrow"}','human',1.79666200145174551009e+09);
INSERT INTO "actions" VALUES(2,6,1,'{"type":"rethrow"}','human',1.7966620014533312321e+09);
INSERT INTO "actions" VALUES(2,7,1,'{"type":"rethrow"}','human',1.79666200145495200159e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"book","category":"6-6-6"}','human',1.79666201747191524502e+09);
INSERT INTO "actions" VALUES(3,2,1,'{"type":"book","category":"two-triplets"}','human',1.7966620174812471867e+09);
INSERT INTO "actions" VALUES(3,3,0,'{"type":"book","category":"two-triplets"}','human',1.79666201749070119858e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"set-aside","dice":[0,5]}','human',1.79666201749540162084e+09);
INSERT INTO "actions" VALUES(3,5,1,'{"type":"book","category":"three-pairs"}','human',1.79666201749801921847e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0006');
CREATE TABLE bot_ratings (
	pool VARCHAR(200) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	PRIMARY KEY (pool, bot)
);
CREATE TABLE challenges (
	handle_hash VARCHAR(64) NOT NULL, 
	purpose VARCHAR(16) NOT NULL, 
	challenge VARCHAR(200) NOT NULL, 
	payload TEXT DEFAULT '' NOT NULL, 
	expires_at FLOAT NOT NULL, 
	PRIMARY KEY (handle_hash)
);
CREATE TABLE chat (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER, 
	name VARCHAR(80) NOT NULL, 
	text TEXT NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE notify_keys (
	name VARCHAR(40) NOT NULL, 
	value TEXT NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (name)
);
INSERT INTO "notify_keys" VALUES('vapid','-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgitDsdgUJjQY0UrOB
8IqBY6e+wDCLAT09ssMoX6OSSUKhRANCAATMlipA1zPP+sTyJ5E2YSDQo2wDf+IU
6+qx0DSuMGJDk4rGC4cHXo3ksrlzccN/ZhzIg0ad07+vfNXTZpdmzzoV
-----END PRIVATE KEY-----
',1.79666197088403368003e+09);
CREATE TABLE notify_outbox (
	id INTEGER NOT NULL, 
	"key" VARCHAR(200) NOT NULL, 
	sub_id INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	payload TEXT NOT NULL, 
	state VARCHAR(8) NOT NULL, 
	due_at FLOAT NOT NULL, 
	attempts INTEGER DEFAULT '0' NOT NULL, 
	claimed_by VARCHAR(16), 
	claim_until FLOAT, 
	sent_at FLOAT, 
	error VARCHAR(300) DEFAULT '' NOT NULL, 
	unsub_hash VARCHAR(64), 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE ("key"), 
	FOREIGN KEY(sub_id) REFERENCES notify_subs (id) ON DELETE CASCADE
);
CREATE TABLE notify_subs (
	id INTEGER NOT NULL, 
	account_id INTEGER, 
	room_id INTEGER, 
	seat INTEGER, 
	channel VARCHAR(8) NOT NULL, 
	target TEXT NOT NULL, 
	secret VARCHAR(64) DEFAULT '' NOT NULL, 
	lang VARCHAR(8) DEFAULT 'en' NOT NULL, 
	unsub_hash VARCHAR(64) NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE, 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE, 
	UNIQUE (unsub_hash)
);
CREATE TABLE passkeys (
	credential_id VARCHAR(400) NOT NULL, 
	account_id INTEGER NOT NULL, 
	public_key TEXT NOT NULL, 
	sign_count INTEGER DEFAULT '0' NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (credential_id), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE TABLE presence (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	process VARCHAR(16) NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seat, process), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE rated_results (
	room_id INTEGER NOT NULL, 
	pool VARCHAR(200) NOT NULL, 
	finished_at FLOAT NOT NULL, 
	places TEXT NOT NULL, 
	PRIMARY KEY (room_id)
);
CREATE TABLE rooms (
	id INTEGER NOT NULL, 
	code VARCHAR(32) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	options TEXT NOT NULL, 
	room_options TEXT NOT NULL, 
	public BOOLEAN NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	seed VARCHAR(48) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	host_token_hash VARCHAR(64) NOT NULL, 
	seq INTEGER NOT NULL, 
	results TEXT, 
	note TEXT NOT NULL, 
	created_at FLOAT NOT NULL, 
	updated_at FLOAT NOT NULL, entropy VARCHAR(16) DEFAULT 'server' NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "rooms" VALUES(1,'OLJhjaEDoJaO9Hvh','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','317939050555111141340995540822817254337','e0034a1545fe3c8bb8fb178add51610a023ec2c46c297ab22b52f3dc6e07e995','05e7da5f04f07c395b50d9c916669d7e9bda7ca4bdf68c17923266986c812566',9,NULL,'',1.79666197079925727842e+09,1.79666198612220597268e+09,'players-v2');
INSERT INTO "rooms" VALUES(2,'bzjO9uPkCe903-Yr','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','260000402044855353193869263468344903854','53c7407a9f4bc8c6ac860b0b265636c4fd399a190cf9ab9954bb456bda3c9083','24ccebb8ae8e11566419c62a0f6b7d02928e7169ca3d3679dde642420ce75180',7,NULL,'',1.79666198625765943528e+09,1.79666200145495200159e+09,'players-v2');
INSERT INTO "rooms" VALUES(3,'bdxUi6bAmysMlfeb','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','25504249241599994801949357034427011516','d44decbc36070c0ac62222f4b58c267a8de72f7165f4fee9dd6973f03b0e9d04','d158bf141351495f8c92f9c75cfffeb01e1bfa155e511d85e56458ee765575ff',5,NULL,'',1.79666200152692890172e+09,1.79666201749801921847e+09,'players-v2');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, contribution VARCHAR(800), contributed_by VARCHAR(8), account_id INTEGER, bank FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','30e5e0c686e2ea0d0b91f30c93a2eae9cee66822549c342f106182dee0a3e5b6',1.7966619861294379234e+09,'1e64ac2110657dd6dde75e710d9a9576','server',NULL,NULL);
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','004128e502ece4e85c2124fb44eaafb48f192f5060f790ed5b6277735f9652c5',1.79666198614041066174e+09,'ebe5edea52fa8ea2bbb653cf1171df52','server',NULL,NULL);
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','86a59ceaa6ac0c5200ca3771b0912a8f290bbc0889467cc4a95083d06de637a8',1.79666200145677614212e+09,'2f769e9ffd775a7a9bb4f1bc5e15b3ba','server',NULL,NULL);
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','1cab8194ffdbdc5dbcd91ac9f8749d0b11271b8c45c6be8233f2e61aada293bc',1.7966620014592840672e+09,'e2f22ac66013d1d0c0318a18481026b0','server',NULL,NULL);
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','399e7d458e9add88747042bb8bbe7e89e05e2d9c9351088b2e894726698c93d5',1.79666201750057387357e+09,'d6443592c9caac8f045e2f87f34e8508','server',NULL,NULL);
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','527fa61da1d9d54fa0f86745396146c85da014d12ed1891393f1e2773c96e79d',1.79666201750515723231e+09,'8710f27e3f1df1ee4088e8fd74af1a87','server',NULL,NULL);
CREATE TABLE sessions (
	token_hash VARCHAR(64) NOT NULL, 
	account_id INTEGER NOT NULL, 
	label VARCHAR(120) DEFAULT '' NOT NULL, 
	created_at FLOAT NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (token_hash), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE TABLE turns (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	since FLOAT NOT NULL, 
	deadline FLOAT, 
	late_at FLOAT, 
	claimed_by VARCHAR(16), 
	claim_until FLOAT, 
	PRIMARY KEY (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
CREATE INDEX ix_presence_process ON presence (process);
CREATE INDEX ix_sessions_account_id ON sessions (account_id);
CREATE INDEX ix_passkeys_account_id ON passkeys (account_id);
CREATE INDEX ix_challenges_expires_at ON challenges (expires_at);
CREATE INDEX ix_rated_results_pool ON rated_results (pool);
CREATE INDEX ix_seats_account_id ON seats (account_id);
CREATE INDEX ix_turns_deadline ON turns (deadline);
CREATE INDEX ix_notify_subs_account_id ON notify_subs (account_id);
CREATE INDEX ix_notify_subs_room_id ON notify_subs (room_id);
CREATE INDEX ix_notify_outbox_unsub_hash ON notify_outbox (unsub_hash);
CREATE INDEX ix_notify_outbox_sub_id ON notify_outbox (sub_id);
CREATE INDEX ix_notify_outbox_state ON notify_outbox (state);
CREATE INDEX ix_notify_outbox_due_at ON notify_outbox (due_at);
COMMIT;
