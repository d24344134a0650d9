BEGIN TRANSACTION;
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
INSERT INTO "actions" VALUES(1,1,0,'{"type":"roll","keep":[0,2,3]}','human',1.79662386846524691581e+09);
INSERT INTO "actions" VALUES(1,2,0,'{"type":"roll","keep":[0,3,4]}','human',1.79662386850132274628e+09);
INSERT INTO "actions" VALUES(1,3,0,'{"type":"take","combination":"three-of-a-kind","source":"plate"}','human',1.79662386852538394927e+09);
INSERT INTO "actions" VALUES(1,4,1,'{"type":"roll","keep":[3,4]}','human',1.79662386858896684646e+09);
INSERT INTO "actions" VALUES(1,5,1,'{"type":"roll","keep":[1,2,3,4]}','human',1.79662386874943542482e+09);
INSERT INTO "actions" VALUES(1,6,0,'{"type":"roll","keep":[0,2,3,4]}','human',1.79662386884395670894e+09);
INSERT INTO "actions" VALUES(1,7,0,'{"type":"roll","keep":[0,2,4]}','human',1.79662386886830043788e+09);
INSERT INTO "actions" VALUES(1,8,0,'{"type":"stop"}','human',1.79662386888337516788e+09);
INSERT INTO "actions" VALUES(1,9,1,'{"type":"roll","keep":[0,1,2,3]}','human',1.7966238689370365143e+09);
INSERT INTO "actions" VALUES(2,1,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79662388574735355372e+09);
INSERT INTO "actions" VALUES(2,2,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79662388575815916056e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1.79662388575968766215e+09);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.7966238857689363957e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"rethrow"}','human',1.79662388577624607087e+09);
INSERT INTO "actions" VALUES(2,6,1,'{"type":"rethrow"}','human',1.79662388578132247926e+09);
INSERT INTO "actions" VALUES(2,7,1,'{"type":"rethrow"}','human',1.79662388579116368298e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"book","category":"6-6-6"}','human',1.79662392172781896593e+09);
INSERT INTO "actions" VALUES(3,2,1,'{"type":"book","category":"two-triplets"}','human',1.79662392215511298176e+09);
INSERT INTO "actions" VALUES(3,3,0,'{"type":"book","category":"two-triplets"}','human',1.7966239225688462257e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"set-aside","dice":[0,5]}','human',1.7966239227036194801e+09);
INSERT INTO "actions" VALUES(3,5,1,'{"type":"book","category":"three-pairs"}','human',1.79662392311500144007e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0003');
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
CREATE TABLE presence (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	process VARCHAR(16) NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seat, process), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
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
INSERT INTO "rooms" VALUES(1,'PmTp-pFRN4b9bzb_','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','42075621558089556930845162249088172291','e88dbc7d2a34dcdfea67f8eb093267e2a0e7249c95383fdd7ea5d649de90556e','2e98dc1b031c8468c41b8f07773f826233e7fe46f8b9d1562a31a1cb9c0d87b3',9,NULL,'',1.79662385206149291996e+09,1.7966238689370365143e+09,'players-v2');
INSERT INTO "rooms" VALUES(2,'xT8lX73tayOiqEDk','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','291257804372587895128112044894618614365','f3e4a439722625eb7e717e073b3270bc8ef9e9fc1ca41e15b7084f42a35c4ebe','c36f2d4e740c767c04ebc873c816774d8f0acc5c69cefa2cd047ee75d9ddae59',7,NULL,'',1.79662386955775403973e+09,1.79662388579116368298e+09,'players-v2');
INSERT INTO "rooms" VALUES(3,'K7CUvkA6NlwQ98GU','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','223073023415576506083114440753225342239','cbf614dfb9aaa99bd493b7540cc1503edf80abed19c80bd111fae675d2183bb2','155bec7bb03f147432c5ca971e666d128ddbab2044b5d893cdef06e21da56b53',5,NULL,'',1.7966238861100752354e+09,1.79662392311500144007e+09,'players-v2');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, contribution VARCHAR(800), contributed_by VARCHAR(8), 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','7973f9a095d0c9a35248824f5a6da07067af557287e6268e15228c7a08f26dd8',1.79662386897585773463e+09,'2b9cd2f6d712f7c7a34fe9cd6ffac294','server');
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','b4de4a1bc0fa71778ab97afaca3a8d8d5b9b923a3af2bd93eb760da45f7b41bb',1.79662386902405524259e+09,'79186c690148d05abb54aacdc6618f1e','server');
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','9e0e86b08dccb7a9bf02db88d882f1e4e4b30b2c4297a8c68a92833174d241f3',1.79662388581141471864e+09,'7214f66bd52bc71ccba8e8495687f4ca','server');
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','80af80f84049752d5034602995145a7af7d6bc3df4c045af65cf6e96ec1216f2',1.79662388583598971363e+09,'d46f0132f6c3a22fd7a2663815f6ada8','server');
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','0ea09aa65847125791015387961136903d84f1e25bb9f8a35bc6e344cffdf6ef',1.79662392327515983581e+09,'bf2f1452fd7f42695a2b05de45a3afba','server');
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','af4757c7524778d8d4d6d22bfda086ddfa1ed290e0450f01372d5205afdf4351',1.79662392341673374175e+09,'470e1c81c6a9439ec2c494c020a7d1f5','server');
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
CREATE INDEX ix_presence_process ON presence (process);
COMMIT;
